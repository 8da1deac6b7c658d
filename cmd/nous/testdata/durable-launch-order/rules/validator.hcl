# Semantic validation by an agent (adaptive-reasoning document, decisions 1
# and 8): at each pass's evaluate phase, after the steps settle and before
# the convergence assessment, the validator agent judges the pass's settled
# steps against their hypotheses in one call. Its verdicts are findings
# (check "validator") beside the check blocks'; an invalid step is not
# converged, and a delta it suggests is a refinement under the loop's
# limits (3 per step, 10 in total). A validator that fails, times out (its
# agent's timeout) or answers off-schema leaves its verdicts uncertain.
#
# when  — whether a pass is validated (pass, max_passes, steps, query,
#         mode, validation.failed/warnings/passed). Unset: every pass, as
#         the document's loop validates every pass.
# steps — which settled steps it judges (the check blocks' step view).
#         Retrievals and agent steps that produced a result: transforms
#         (rank, filter, …) are deterministic and the checks cover them; a
#         failed step has no result to judge (its error is a caveat).
validator {
  agent = "validator"
  steps = "(step.action == 'retrieve' || step.role != '') && step.status != 'failed'"
}
