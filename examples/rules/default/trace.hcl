# The reasoning trace (trace document): every decision of a run as an entry
# (stage, thought, action, evidence, outcome, commitments, corrections),
# shown by `nous ask --trace` and in the JSON output. The document ships it
# off "for safety", as an add-on to a system that answered without it; in
# nous the trace is how a reader checks an answer, so it stays on. Set
# false to record no entries: the run, its status and its report are the
# same, the JSON has no trace and the agents get no trace summary.
reasoning_trace {
  enabled = true
}
