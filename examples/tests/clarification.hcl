# When the default rules ask a question back instead of running it
# (`nous ask` exits 3). Grounding (a name matching several people) needs
# the sources, so only the rules' own ambiguities are tested here.

test "command_with_nothing_to_act_on_is_asked_back" {
  input {
    query = "please close it"
  }
  expect {
    ambiguities = ["missing_entity:targets"]
  }
}

test "command_naming_its_target_runs" {
  input {
    query = "please close PAY-101"
  }
  expect {
    ambiguities = []
  }
}

test "command_on_an_issue_number_runs" {
  input {
    query = "reopen #42"
  }
  expect {
    ambiguities = []
  }
}

# A question that asks two things is answered twice, never asked back.
test "commits_and_issues_combine" {
  input {
    query = "What commits were pushed last week, and how many open bugs are there?"
  }
  expect {
    ambiguities = []
  }
}

test "ordinary_questions_run" {
  input {
    query = "who changed hclwrite since v2.20.0?"
  }
  expect {
    ambiguities = []
  }
}

# Doing a thing and explaining how to do it exclude each other: within
# clarify_margin (0.05) of each other, the user chooses.
test "doing_or_explaining_within_the_margin_is_asked_back" {
  input {
    intents = [
      { type = "command_action", confidence = 0.8 },
      { type = "request_help", confidence = 0.85 },
    ]
    entities = { targets = ["runner"] }
  }
  expect {
    ambiguities = ["intent"]
  }
}

# The seed's 0.3 threshold comes first: an intent it skips conflicts with
# nothing.
test "a_skipped_intent_conflicts_with_nothing" {
  input {
    intents = [
      { type = "command_action", confidence = 0.29 },
      { type = "request_help", confidence = 0.3 },
    ]
  }
  expect {
    ambiguities = []
    diagnostics = ["skipped"]
  }
}

test "a_clear_winner_beyond_the_margin_runs" {
  input {
    intents = [
      { type = "command_action", confidence = 0.8 },
      { type = "request_help", confidence = 0.9 },
    ]
    entities = { targets = ["runner"] }
  }
  expect {
    ambiguities = []
  }
}

# A command after another question is still a command, never dropped:
# "please close it" names nothing and is asked back; with a target the
# command is planned beside the commits (and reported not executed).
test "command_after_a_question_is_asked_back" {
  input {
    query = "what changed? please close it"
  }
  expect {
    ambiguities = ["missing_entity:targets"]
  }
}

test "command_after_a_question_with_a_target_runs" {
  input {
    query = "what changed in 2025? please close HCL-12"
  }
  expect {
    ambiguities = []
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
      { id = "h2", description = "Format commit summary for user", dependencies = ["h1"] },
      { id = "h3", description = "Validate command preconditions and permissions", dependencies = [] },
      { id = "h4", description = "Execute command action", dependencies = ["h3"] },
      { id = "h5", description = "Verify command execution result", dependencies = ["h4"] },
    ]
  }
}
