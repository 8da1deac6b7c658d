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

# Conversations (`nous ask --session ID`): what a session keeps, and what a
# follow-up question takes from the turn before it. A question is a
# follow-up when it opens like one ("and the week before?", "only in
# hclwrite", "what about Alice?") or when no detect rule matched it; it then
# takes the earlier question's intents (only when none of its own was
# detected, and never a greeting, help or a command: not_inherited) and
# every entity below it does not name itself. "The week
# before" / "the month after" / "before that" move the earlier period. The
# report's Understood block says what was carried over.
session {
  max_turns        = 20
  max_answer_bytes = 4000
  max_sessions     = 100
  max_age          = "720h"
  context_turns    = 3
  follow_up        = "query matches '(?i)^\\\\s*(?:and|but|also|or|then|so|now|what about|how about|only|just|same)\\\\b' || intent_types == ['fallback']"
  inherit          = ["intents", "dates", "projects", "paths", "authors", "revisions", "topics", "statuses", "providers"]
  not_inherited    = ["conversation", "request_help", "command_action"]
}
