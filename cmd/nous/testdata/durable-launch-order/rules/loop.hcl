# Bounds of the multi-pass loop (adaptive-execution document): three passes
# in a 60 s budget checked at step boundaries, three refinements per step and
# ten in total, four steps at a time. The document's three passes and 60 s
# are the budget of the "standard" depth (depth.hcl); the block is the
# ceiling of every depth level, raised to what the deepest ("exhaustive")
# needs: five passes, 120 s, 2000 records a step.
loop {
  max_passes      = 5
  ttl             = "120s"
  refine_per_step = 3
  refine_total    = 10
  workers         = 4
  max_records     = 2000
}
