# Task profile and adaptive depth (adaptive-reasoning document, phases A
# and D). The planner counts the task profile of each question (profile.words,
# intents, entities, constraints, hypotheses, agent_steps, retrievals,
# sources) and runs it at the highest depth level whose `when` holds; the
# lowest level is the floor. A level's budget replaces the loop block's for
# the run; the loop block is the ceiling of every level.
#
# The document names the profile (reasoning depth 1–5, information
# sufficiency, expected tool usage, output breadth, confidence requirement)
# and its ±1 tier stability, but gives no thresholds or budgets: the levels
# and values below are nous's own. The conditions weigh the report's
# breadth (intents), the expected tool usage (retrievals, sources) and how
# much the question pins down (constraints); strict mode asks for more
# confidence, so it never runs below "standard".

# At each pass boundary that leaves work to do, the depth moves by at most
# one level (the document's ±1 stability): deeper when validation refused a
# step's result (evidence is missing, so look further), shallower when the
# pass refused nothing and failed no check.
profile {
  deepen = "pass.need_refinement > 0"
  ease   = "pass.need_refinement == 0 && pass.failed == 0"
}

# Every level has at least the loop document's 60 s: the TTL is a safety
# bound, not effort (a narrow question over a long history needs the time to
# count it), and every level holds the same 1000 records. The lower levels
# save passes and agent effort (the depth hint); a direct question still gets
# its refinement pass by deepening. The deeper levels get more than the
# document's budget: more passes, more time, more records held.

# One intent, one retrieval, little to pin down: "what changed last week?".
depth "direct" {
  level       = 1
  description = "a single narrow question: one pass unless it needs refining"
  max_passes  = 1
  ttl         = "60s"
  max_records = 1000
}

depth "focused" {
  level       = 2
  description = "one question over several sources, or with several retrievals or constraints"
  when        = "profile.sources >= 2 || profile.intents + profile.retrievals + profile.constraints >= 4"
  max_passes  = 2
  ttl         = "60s"
  max_records = 1000
}

# The loop document's budget: three passes in 60 s.
depth "standard" {
  level       = 3
  description = "a few questions at once, or strict mode"
  when        = "profile.intents + profile.retrievals + profile.constraints >= 6 || mode == 'strict'"
  max_passes  = 3
  ttl         = "60s"
  max_records = 1000
}

depth "broad" {
  level       = 4
  description = "several intents over several sources: a fourth pass, 90 s"
  when        = "profile.intents >= 3 && profile.sources >= 2 || profile.intents + profile.retrievals + profile.constraints >= 8"
  max_passes  = 4
  ttl         = "90s"
  max_records = 1500
}

# Everything the loop block allows.
depth "exhaustive" {
  level       = 5
  description = "a broad question that names many things: the loop's whole budget"
  when        = "profile.intents >= 3 && profile.retrievals >= 4 && profile.constraints >= 3"
  max_passes  = 5
  ttl         = "120s"
  max_records = 2000
}
