# Questions about where the code changed and by how much are one intent,
# query_churn, whose retrieval asks for line statistics (with_stats); a
# year after "of" or "in" is a period, never a path. (Before grounding a
# path with a slash is also a project candidate; grounding keeps one.)

test "files_changed_most_asks_for_line_statistics" {
  input {
    query = "which files changed the most since 2018?"
  }
  expect {
    queries = ["Retrieve commits with line statistics from GitLab dates:since 2018 with_stats:true"]
  }
}

test "directories_changed_most" {
  input {
    query = "which directories changed most last month?"
  }
  expect {
    queries = ["Retrieve commits with line statistics from GitLab dates:last month with_stats:true"]
  }
}

test "lines_added_in_a_year_is_churn_not_a_commit_count" {
  input {
    query = "how many lines were added in 2025?"
  }
  expect {
    queries = ["Retrieve commits with line statistics from GitLab dates:in 2025 with_stats:true"]
  }
}

test "largest_commit_of_a_year_reads_the_year_as_a_period" {
  input {
    query = "what is the largest commit of 2025?"
  }
  expect {
    queries = ["Retrieve commits with line statistics from GitLab dates:of 2025 with_stats:true"]
  }
}

test "hotspots_and_churn" {
  input {
    query = "show me the hotspots in internal/command since v1.5.0"
  }
  expect {
    queries = ["Retrieve commits with line statistics from GitLab projects:internal/command paths:internal/command revisions:v1.5.0.. with_stats:true"]
  }
}

test "what_changed_is_still_commits" {
  input {
    query = "what changed in 2025?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab dates:in 2025"]
  }
}
