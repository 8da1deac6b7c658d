# Detection and extraction from the raw question with the default rules'
# detect, entity and mode rules.

test "question_detects_commits_and_entities" {
  input {
    query = "What commits were pushed to project payments last week?"
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
      { id = "h2", description = "Format commit summary for user", dependencies = ["h1"] },
    ]
    queries = ["Retrieve commit data from GitLab projects:payments dates:last week"]
    mode    = "discovery"
  }
}

# Counting bugs needs issue metrics, not commit metrics: the commit
# retrieval of the analytics intent runs only when the question is about
# commits (or not about issues).
test "question_detects_issues_and_analytics" {
  input {
    query = "How many open bugs does project ABC have?"
  }
  expect {
    queries = [
      "Retrieve issue data from YouTrack projects:ABC statuses:open",
      "Retrieve issue metrics from YouTrack projects:ABC",
    ]
  }
}

test "counting_commits_needs_no_tracker" {
  input {
    query = "how many commits were made in project ABC yesterday?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab projects:ABC dates:yesterday", "Retrieve commit metrics from GitLab projects:ABC dates:yesterday"]
  }
}

# The design's headline question: a bare name before a time word may be a
# project or a path. `nous plan` shows both candidates; `nous ask` grounds
# them against the sources and keeps the one a source knows.
test "headline_question_names_the_project" {
  input {
    query = "what changed in payments last week?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab projects:payments dates:last week paths:payments"]
  }
}

# "this repository" names no project, and "last" is not one either.
test "this_repository_is_no_project" {
  input {
    query = "what changed in this repository last week?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab dates:last week"]
  }
}

# An issue key names its project; "since DATE" is an open-ended range.
test "issue_key_names_the_project" {
  input {
    query = "which bugs like PAY-101 were reopened since 2026-01-01?"
  }
  expect {
    queries = ["Retrieve issue data from YouTrack projects:PAY dates:since 2026-01-01 statuses:reopened"]
  }
}

test "verify_selects_strict_mode" {
  input {
    query = "Verify the status of the release"
  }
  expect {
    mode = "strict"
    hypotheses = [
      { id = "h0", description = "Check system health and status" },
      { id = "h1", description = "Gather recent events and changes" },
      { id = "h2", description = "Synthesize overall status report", dependencies = ["h0", "h1"] },
    ]
  }
}

test "greeting_is_conversation" {
  input {
    query = "Hello there!"
  }
  expect {
    hypotheses = [{ id = "h0", description = "Generate appropriate conversational response" }]
    plans      = []
  }
}

test "unrecognised_question_uses_fallback" {
  input {
    query = "Tell me something about the weather"
  }
  expect {
    plans       = [{ id = "plan0", description = "Retrieve related information from all sources", priority = 5 }]
    diagnostics = ["no_intent_detected"]
  }
}

# Help retrieves the repository's documentation; a question about changes
# to a docs directory is about commits, not a help request.
test "help_retrieves_documentation" {
  input {
    query = "documentation for the builtin functions"
  }
  expect {
    queries = ["Retrieve relevant documentation and examples"]
  }
}

test "docs_directory_is_no_help_request" {
  input {
    query = "what changed in docs last month?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab projects:docs dates:last month paths:docs"]
  }
}

# What a change verb acts on is a path candidate ("the checker" of expr's
# checker/); grounding keeps it only where the tree has it. A word after
# the verb that names no thing ("changed in", "changed the most") is not.
test "change_verb_object_is_a_path_candidate" {
  input {
    query = "who changed the checker in 2025?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab dates:in 2025 paths:checker"]
  }
}

test "change_verb_before_a_preposition_names_no_path" {
  input {
    query = "what changed the most in 2025?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab dates:in 2025"]
  }
}

# Author names in any script and of three words are extracted whole: a
# name cut short ("Martin" of "Martin Ågren") would be asked back or
# answered for someone else.
test "authors_in_any_script_and_of_three_words" {
  input {
    query = "what did Martin Ågren commit in 2024?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab dates:in 2024 authors:Martin Ågren"]
  }
}

test "author_of_three_words" {
  input {
    query = "what did Diego Augusto Molina change?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab authors:Diego Augusto Molina"]
  }
}

test "author_after_by_with_non_ascii_letters" {
  input {
    query = "show commits by Ævar Arnfjörð Bjarmason in January 2022"
  }
  expect {
    queries = ["Retrieve commit data from GitLab dates:in January 2022 authors:Ævar Arnfjörð Bjarmason"]
  }
}

test "author_with_a_middle_initial" {
  input {
    query = "what did Junio C Hamano commit in March 2025?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab dates:in March 2025 authors:Junio C Hamano"]
  }
}

test "author_with_an_initial_and_a_dot_after_by" {
  input {
    query = "show commits by Jeffrey C. Ollie"
  }
  expect {
    queries = ["Retrieve commit data from GitLab authors:Jeffrey C. Ollie"]
  }
}
