# A deliberately broken rules file: one seeded mistake per lint check.
nous {
  version        = 1
  min_confidence = 0.3
}

source "gitlab" {
  plugin   = "builtin:gitlab"
  priority = 10
  colour   = "red"
}

source "youtrack" {
  plugin   = "builtin:youtrack"
  priority = "high"
}

# nous-lint-ignore: unused
source "spare" { plugin = "builtin:file" }

agent "writer" { plugin = "builtin:template" }
agent "poet" { plugin = "builtin:template" }

intent "query_commits" {
  pattern = "tree"

  detect {
    when       = "query matches '(?i)commits' && intnet_types != nil"
    confidence = 1.2
  }

  hypothesis "retrieve" {
    description = "Retrieve commit data from GitLab"
    action      = "retrieve"
  }
  hypothesis "rank" {
    action = "rank"
  }
  hypothesis "format" {
    description = "Format commit summary for user"
    agent       = "writer"
  }

  retrieve "commits" {
    description = "Retrieve commit data from GitLab"
    source      = "gitlab"
    filters     = ["dates"]
    when        = "true"
  }
  retrieve "issues" {
    description = "Retrieve issues"
    source      = "jira"
  }
}

intent "query_status" {
  hypothesis "health" {
    description = "Check system health and status"
    depends_on  = ["report"]
  }
  hypothesis "report" {
    description = "Synthesize overall status report"
  }
  retrieve "status" {
    description = "Retrieve status"
    source      = "youtrack"
    filters     = ["dates"] # nous-lint-ignore: unused-filter-name-is-not-a-check
  }
}

entity "dates" { pattern = "(?i)(last week)" }
entity "dates" { pattern = "(" }

check "never" {
  applies = "1 == 2"
  assert  = "len(step.records) > 0"
}

check "broaden" {
  assert  = "len(step.records) > 0"
  on_fail = "refine"
  refine {
    drop_filters = ["dates"]
  }
}

prompt "writer" {
  template = "Summarise {{.Query"
}

mode "strict" {
  when = "query matches '(?i)\\bverify\\b'"
}

depth "quick" { level = 1 }
depth "deep" { level = 7 }
