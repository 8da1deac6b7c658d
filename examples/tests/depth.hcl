# Task profile and depth with the default rules (depth.hcl): the planner
# counts each question's profile and runs it at the highest level whose
# when holds. The levels and their thresholds are nous's own; the
# adaptive-reasoning document names the profile but gives no values.

# One intent, one retrieval, one constraint: the floor.
test "depth_simple_question_is_direct" {
  input {
    query = "what changed last week?"
  }
  expect {
    depth = "direct"
  }
}

# A greeting retrieves nothing.
test "depth_greeting_is_direct" {
  input {
    query = "hello"
  }
  expect {
    depth = "direct"
  }
}

# The status plan asks two sources.
test "depth_status_is_focused" {
  input {
    query = "what is the status of the project?"
  }
  expect {
    depth = "focused"
  }
}

# Strict mode asks for more confidence: never below standard.
test "depth_strict_mode_is_standard" {
  input {
    query = "verify the release notes"
  }
  expect {
    mode  = "strict"
    depth = "standard"
  }
}

# Three intents over two sources.
test "depth_broad_question" {
  input {
    query = "what is the status of the project and who changed the code since v2.20.0, and are there open issues?"
  }
  expect {
    depth = "broad"
  }
}

# Many intents, many retrievals, many constraints: the loop's whole budget.
test "depth_exhaustive_question" {
  input {
    query = "how many commits and open bugs did alice push to project payments last week, and what is the status?"
  }
  expect {
    depth = "exhaustive"
  }
}

# Explicit intents and entities are profiled like detected ones.
test "depth_explicit_intents" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "query_issues", confidence = 0.85 },
    ]
    entities = { projects = ["payments"], dates = ["last week"] }
  }
  expect {
    depth = "standard"
  }
}
