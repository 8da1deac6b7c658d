# Semantic validation run after each step; failures feed the convergence
# assessment, and a failed check with on_fail = "refine" asks for the delta
# in its refine block on that step before the next pass.

# A retrieval that found nothing in the asked period looks for the most
# recent record before it (same filters, one record), marked as outside the
# period: the report says the period was empty and shows what came last.
# A retrieval without a period, or with nothing before it either, stays
# empty (the finding is kept as a warning): that is the answer.
check "retrieval_found_data" {
  applies = "step.action == 'retrieve' && step.status == 'completed'"
  assert  = "len(step.records) > 0"
  message = "retrieval returned no records"
  on_fail = "refine"
  refine {
    op      = "MODIFY"
    nearest = "before"
  }
}

# The writer must produce a report.
check "writer_produced_report" {
  applies = "step.role == 'writer' && step.status == 'completed'"
  assert  = "len(trim(step.output)) > 0"
  message = "the writer returned an empty report"
  on_fail = "fail"
}

# Strict mode answers only from tier 1–2 sources.
check "strict_sources_only" {
  applies = "mode == 'strict' && step.action == 'retrieve'"
  assert  = "all(step.records, {.tier >= 1 && .tier <= 2})"
  message = "strict mode kept a record from an unknown or low-tier source"
  on_fail = "fail"
}

# A critic verdict of WARN is kept as a warning in the validation report.
check "critic_not_warning" {
  applies = "step.role == 'writer' && step.verdict != ''"
  assert  = "step.verdict != 'WARN'"
  message = "the critic passed the draft with reservations"
  on_fail = "warn"
}
