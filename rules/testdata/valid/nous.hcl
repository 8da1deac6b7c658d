nous {
  version        = 1
  min_confidence = 0.3
  default_mode   = "discovery"
}

source "gitlab" {
  plugin   = "builtin:gitlab"
  priority = 10
  config = {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN")
  }
}

source "generic" {
  plugin   = "builtin:file"
  priority = 5
}

agent "writer" {
  plugin  = "builtin:template"
  timeout = "45s"
}

intent "query_commits" {
  pattern = "chain"

  detect {
    when       = "query matches '(?i)\\\\bcommits?\\\\b|\\\\bpushed\\\\b|\\\\bmerged\\\\b'"
    confidence = 0.9
  }

  hypothesis "retrieve" {
    description = "Retrieve commit data from GitLab"
    action      = "retrieve"
  }
  hypothesis "rank" {
    description = "Filter and rank commits by relevance"
    action      = "rank"
  }
  hypothesis "format" {
    description = "Format commit summary for user"
    agent       = "writer"
  }

  retrieve "commits" {
    description = "Retrieve commit data from GitLab"
    source      = "gitlab"
    priority    = 10
    filters     = ["projects", "dates"]
    when        = "len(intent_types) > 0"
  }
}

intent "query_status" {
  pattern = "fan_in"

  hypothesis "health" { description = "Check system health and status" }
  hypothesis "events" { description = "Gather recent events and changes" }
  hypothesis "report" {
    description = "Synthesize overall status report"
    depends_on  = ["health", "events"]
  }
  retrieve "recent_commits" {
    description = "Retrieve recent commits"
    source      = "gitlab"
    priority    = 8
    filters     = ["dates"]
    defaults    = { dates = ["last week"] }
  }
}

intent "fallback" {
  hypothesis "search" {
    description = "Search all sources"
    action      = "retrieve"
  }
  retrieve "generic" {
    description = "Generic retrieval"
    source      = "generic"
  }
}

dependency "status_reuses_commits" {
  when = "'query_commits' in intent_types && 'query_status' in intent_types"
  from = "query_commits.retrieve"
  to   = "query_status.report"
}

entity "projects" { pattern = "(?i)\\bproject[:\\s]+([\\w./-]+)" }
entity "dates" { patterns = ["(?i)\\b(last week|this week|today|yesterday)\\b"] }

mode "strict" {
  when     = "query matches '(?i)\\\\bverify\\\\b|fact.?check|is it true'"
  keep     = "item.tier >= 1 && item.tier <= 2"
  on_empty = "error"
}
mode "discovery" { warn = "item.tier == 0 || item.tier >= 3" }
mode "monitor" { compare = [1, 5] }

tier "中央社" {
  tier = 1
  type = "official"
}

check "retrieval_found_data" {
  applies = "step.action == 'retrieve'"
  assert  = "len(step.records) > 0"
  message = "retrieval returned no records"
  on_fail = "refine"
  refine {
    op      = "MODIFY"
    nearest = "before"
  }
}

loop {
  max_passes      = 3
  ttl             = "60s"
  refine_per_step = 3
  refine_total    = 10
}

prompt "writer" {
  template = <<-EOT
    Summarise {{.Query}} for the user.
    EOT
}

test "commits" {
  input {
    query    = "commits in project nous last week"
    intents  = [{ type = "query_commits", confidence = 0.9 }]
    entities = { projects = ["nous"] }
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Filter and rank commits by relevance", dependencies = ["h0"] },
    ]
    edges   = { h0 = ["h1"] }
    plans   = [{ id = "plan0", description = "Retrieve commit data from GitLab", sources = ["gitlab"], priority = 10 }]
    queries = ["Retrieve commit data from GitLab projects:nous"]
  }
}
