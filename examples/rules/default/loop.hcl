# Bounds of the multi-pass loop (adaptive-execution document): at most three
# passes, a 60 s budget checked at step boundaries, three refinements per
# step and ten in total, four steps at a time.
loop {
  max_passes      = 3
  ttl             = "60s"
  refine_per_step = 3
  refine_total    = 10
  workers         = 4
}
