# Questions about the hosted project (pull requests, releases, CI) plan onto
# the "github" source (hosted.hcl), whichever host serves it, and are not
# taken for commit questions.

test "merged_pull_requests_are_not_commits" {
  input {
    query = "which PRs were merged last week?"
  }
  expect {
    queries = ["Retrieve pull requests from GitHub or GitLab dates:last week statuses:merged"]
  }
}

test "pull_request_filters_from_the_question" {
  input {
    query = "open PRs labelled needs-review assigned to octocat in milestone v1.1"
  }
  expect {
    plans   = [{ id = "plan0", description = "Retrieve pull requests from GitHub or GitLab", sources = ["github"], priority = 10 }]
    queries = ["Retrieve pull requests from GitHub or GitLab statuses:open labels:needs-review assignees:octocat milestones:v1.1"]
  }
}

test "the_latest_release_is_one" {
  input {
    query = "what is in the latest release?"
  }
  expect {
    queries = ["Retrieve the latest release from GitHub or GitLab statuses:latest"]
  }
}

# A file named like a changelog is a path, not a release question (the
# project candidate "CHANGELOG" is dropped when grounding finds none).
test "changelog_file_is_no_release_question" {
  input {
    query = "what changed in CHANGELOG.md this year?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab projects:CHANGELOG dates:this year paths:CHANGELOG.md"]
  }
}

test "ci_on_a_branch_defaults_to_last_week" {
  input {
    query = "is CI green on main?"
  }
  expect {
    queries = ["Retrieve CI runs from GitHub or GitLab dates:last week revisions:main"]
  }
}

# Counting CI runs is the CI intent's own count, not commit analytics.
test "counting_ci_runs_is_no_commit_count" {
  input {
    query = "how many CI runs failed on main in March 2024?"
  }
  expect {
    queries = ["Retrieve CI runs from GitHub or GitLab dates:in March 2024 revisions:main"]
  }
}

test "since_the_last_release_is_a_revision_range" {
  input {
    query = "what changed since the last release?"
  }
  expect {
    queries = ["Retrieve commit data from GitLab revisions:last release.."]
  }
}
