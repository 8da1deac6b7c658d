# The examples of the retrieval-planner document (seed 004): per-intent
# plans, priorities, entity filters, query-string normalisation and the
# priority sort. Run: nous test examples/tests

test "commit_query_with_entities" {
  input {
    intents  = [{ type = "query_commits", confidence = 0.9 }]
    entities = { projects = ["my-repo"], dates = ["this week"] }
  }
  expect {
    plans   = [{ id = "plan0", description = "Retrieve commit data from GitLab", sources = ["gitlab"], priority = 10 }]
    queries = ["Retrieve commit data from GitLab projects:my-repo dates:this week"]
  }
}

test "query_string_lists_values_in_rule_order" {
  input {
    intents  = [{ type = "query_commits", confidence = 0.9 }]
    entities = { dates = ["last week"], projects = ["proj1", "proj2"] }
  }
  expect {
    queries = ["Retrieve commit data from GitLab projects:proj1,proj2 dates:last week"]
  }
}

test "issue_query_filters_projects_dates_statuses" {
  input {
    intents  = [{ type = "query_issues", confidence = 0.85 }]
    entities = { projects = ["proj-123"], dates = ["this month"], statuses = ["open", "in-progress"] }
  }
  expect {
    plans   = [{ id = "plan0", description = "Retrieve issue data from YouTrack", sources = ["youtrack"], priority = 10 }]
    queries = ["Retrieve issue data from YouTrack projects:proj-123 dates:this month statuses:open,in-progress"]
  }
}

test "issue_query_with_statuses_only" {
  input {
    intents  = [{ type = "query_issues", confidence = 0.85 }]
    entities = { statuses = ["open", "in-progress"] }
  }
  expect {
    queries = ["Retrieve issue data from YouTrack statuses:open,in-progress"]
  }
}

test "analytics_plans_gitlab_and_youtrack_metrics" {
  input {
    intents  = [{ type = "query_analytics", confidence = 0.85 }]
    entities = { projects = ["repo1"], dates = ["2024-01-15"] }
  }
  expect {
    plans = [
      { id = "plan0", description = "Retrieve commit metrics from GitLab", sources = ["gitlab"], priority = 9 },
      { id = "plan1", description = "Retrieve issue metrics from YouTrack", sources = ["youtrack"], priority = 9 },
    ]
    queries = [
      "Retrieve commit metrics from GitLab projects:repo1 dates:2024-01-15",
      "Retrieve issue metrics from YouTrack projects:repo1 dates:2024-01-15",
    ]
  }
}

test "status_uses_fixed_filters" {
  input {
    intents = [{ type = "query_status", confidence = 0.85 }]
  }
  expect {
    plans = [
      { id = "plan0", description = "Retrieve recent commits for activity status", sources = ["gitlab"], priority = 8 },
      { id = "plan1", description = "Retrieve open issues for health status", sources = ["youtrack"], priority = 8 },
    ]
    queries = [
      "Retrieve recent commits for activity status dates:last week",
      "Retrieve open issues for health status statuses:open,in-progress",
    ]
  }
}

# The document fixes the status plans' filters: the question's statuses and
# dates are not applied, and the plan says so.
test "status_keeps_fixed_filters_against_the_question" {
  input {
    intents  = [{ type = "query_status", confidence = 0.85 }]
    entities = { statuses = ["closed"], dates = ["last month"] }
  }
  expect {
    queries = [
      "Retrieve recent commits for activity status dates:last week",
      "Retrieve open issues for health status statuses:open,in-progress",
    ]
    diagnostics = [
      "info fixed_filter: retrieve \"recent_commits\" keeps dates:last week fixed; the question's dates:last month was not applied",
      "info fixed_filter: retrieve \"open_issues\" keeps statuses:open,in-progress fixed; the question's statuses:closed was not applied",
    ]
  }
}

test "multiple_intents_tie_in_intent_order" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "query_issues", confidence = 0.8 },
    ]
  }
  expect {
    plans = [
      { id = "plan0", description = "Retrieve commit data from GitLab", sources = ["gitlab"], priority = 10 },
      { id = "plan1", description = "Retrieve issue data from YouTrack", sources = ["youtrack"], priority = 10 },
    ]
    queries = ["Retrieve commit data from GitLab", "Retrieve issue data from YouTrack"]
  }
}

test "plans_sorted_by_priority_across_intents" {
  input {
    intents = [
      { type = "query_status", confidence = 0.85 },
      { type = "query_analytics", confidence = 0.8 },
      { type = "query_commits", confidence = 0.9 },
    ]
  }
  expect {
    plans = [
      { id = "plan0", description = "Retrieve commit data from GitLab", priority = 10 },
      { id = "plan1", description = "Retrieve commit metrics from GitLab", priority = 9 },
      { id = "plan2", description = "Retrieve issue metrics from YouTrack", priority = 9 },
      { id = "plan3", description = "Retrieve recent commits for activity status", priority = 8 },
      { id = "plan4", description = "Retrieve open issues for health status", priority = 8 },
    ]
  }
}

test "low_confidence_intent_gets_no_plan" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "query_issues", confidence = 0.2 },
    ]
  }
  expect {
    plans       = [{ id = "plan0", description = "Retrieve commit data from GitLab" }]
    diagnostics = ["low_confidence"]
  }
}

test "unknown_intent_falls_back_to_generic_retrieval" {
  input {
    intents = [{ type = "query_deployments", confidence = 0.9 }]
  }
  expect {
    plans       = [{ id = "plan0", sources = ["generic"], priority = 5 }]
    diagnostics = ["warning unknown_intent: intent type \"query_deployments\" has no template"]
  }
}
