# The examples of the reasoning-structure document (seed 000): the seven
# hypothesis templates, the dependency graph shapes, multi-intent numbering
# and the 0.3 confidence threshold. Run: nous test examples/tests

test "query_commits_is_a_chain" {
  input {
    intents = [{ type = "query_commits", confidence = 0.9 }]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
      { id = "h2", description = "Format commit summary for user", dependencies = ["h1"] },
    ]
    edges = { h0 = ["h1"], h1 = ["h2"] }
  }
}

test "query_issues_is_a_chain" {
  input {
    intents = [{ type = "query_issues", confidence = 0.9 }]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve issue data from YouTrack", dependencies = [] },
      { id = "h1", description = "Apply filters based on entities (status, date, project)", dependencies = ["h0"] },
      { id = "h2", description = "Format issue summary for user", dependencies = ["h1"] },
    ]
    edges = { h0 = ["h1"], h1 = ["h2"] }
  }
}

test "query_analytics_has_four_steps" {
  input {
    intents = [{ type = "query_analytics", confidence = 0.85 }]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Identify relevant data sources (commits, issues, metrics)", dependencies = [] },
      { id = "h1", description = "Aggregate data from multiple sources", dependencies = ["h0"] },
      { id = "h2", description = "Calculate statistics and trends", dependencies = ["h1"] },
      { id = "h3", description = "Generate analytics report with visualizations", dependencies = ["h2"] },
    ]
    edges = { h0 = ["h1"], h1 = ["h2"], h2 = ["h3"] }
  }
}

test "query_status_starts_in_parallel" {
  input {
    intents = [{ type = "query_status", confidence = 0.85 }]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Check system health and status", dependencies = [] },
      { id = "h1", description = "Gather recent events and changes", dependencies = [] },
      { id = "h2", description = "Synthesize overall status report", dependencies = ["h0", "h1"] },
    ]
    edges = { h0 = ["h2"], h1 = ["h2"] }
  }
}

test "command_action_is_a_chain" {
  input {
    intents = [{ type = "command_action", confidence = 0.9 }]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Validate command preconditions and permissions", dependencies = [], action = "agent" },
      # nous only reads: the execute step is an effect, reported as not executed.
      { id = "h1", description = "Execute command action", dependencies = ["h0"], action = "effect" },
      { id = "h2", description = "Verify command execution result", dependencies = ["h1"], action = "agent" },
    ]
    edges = { h0 = ["h1"], h1 = ["h2"] }
    plans = []
  }
}

test "request_help_is_a_chain" {
  input {
    intents = [{ type = "request_help", confidence = 0.9 }]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Identify help topic and user context", dependencies = [], action = "agent" },
      # The repository's documentation (source "docs").
      { id = "h1", description = "Retrieve relevant documentation and examples", dependencies = ["h0"], action = "retrieve" },
      { id = "h2", description = "Format helpful response with examples", dependencies = ["h1"], action = "agent" },
    ]
    edges = { h0 = ["h1"], h1 = ["h2"] }
    plans = [{ id = "plan0", description = "Retrieve relevant documentation and examples", sources = ["docs"], priority = 5 }]
  }
}

test "conversation_is_one_step" {
  input {
    intents = [{ type = "conversation", confidence = 0.9 }]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Generate appropriate conversational response", dependencies = [] },
    ]
    edges = {}
  }
}

test "multiple_intents_number_globally_without_cross_edges" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "query_issues", confidence = 0.7 },
    ]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
      { id = "h2", description = "Format commit summary for user", dependencies = ["h1"] },
      { id = "h3", description = "Retrieve issue data from YouTrack", dependencies = [] },
      { id = "h4", description = "Apply filters based on entities (status, date, project)", dependencies = ["h3"] },
      { id = "h5", description = "Format issue summary for user", dependencies = ["h4"] },
    ]
    edges = { h0 = ["h1"], h1 = ["h2"], h3 = ["h4"], h4 = ["h5"] }
  }
}

test "commits_and_analytics_give_seven_hypotheses" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "query_analytics", confidence = 0.8 },
    ]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
      { id = "h2", description = "Format commit summary for user", dependencies = ["h1"] },
      { id = "h3", description = "Identify relevant data sources (commits, issues, metrics)", dependencies = [] },
      { id = "h4", description = "Aggregate data from multiple sources", dependencies = ["h3"] },
      { id = "h5", description = "Calculate statistics and trends", dependencies = ["h4"] },
      { id = "h6", description = "Generate analytics report with visualizations", dependencies = ["h5"] },
    ]
    edges = { h0 = ["h1"], h1 = ["h2"], h3 = ["h4"], h4 = ["h5"], h5 = ["h6"] }
  }
}

test "low_confidence_intent_is_skipped" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "query_issues", confidence = 0.2 },
    ]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
      { id = "h2", description = "Format commit summary for user", dependencies = ["h1"] },
    ]
    diagnostics = ["low_confidence: intent \"query_issues\" skipped"]
  }
}

test "low_confidence_conversation_is_skipped" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "conversation", confidence = 0.2 },
    ]
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
      { id = "h2", description = "Format commit summary for user", dependencies = ["h1"] },
    ]
    diagnostics = ["low_confidence: intent \"conversation\" skipped"]
  }
}
