nous {
  min_confidence = 0.4
  fallback       = "generic"
}

source "gitlab" {
  plugin   = "builtin:gitlab"
  priority = 10
  config = {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN")
    pages    = 3
    verbose  = true
  }
}

agent "writer" {
  plugin  = "builtin:template"
  timeout = "45s"
}

intent "generic" {
  pattern = "explicit"
  detect {
    when       = "query matches \"(?i)\\\\bstatus\\\\b\" && len(entities) >= 0"
    confidence = 0.7
  }
  hypothesis "a" {
    description = "First"
    action      = "retrieve"
  }
  hypothesis "b" {
    description = "Second"
    agent       = "writer"
    depends_on  = ["a"]
  }
  retrieve "r" {
    description = "Generic retrieval"
    source      = "gitlab"
    filters     = ["projects"]
    defaults    = { projects = "nous" }
    limit       = 20
  }
}

dependency "d" {
  from = "generic.a"
  to   = "generic.b"
}

entity "projects" { pattern = "project ([a-z]+)" }

mode "strict" {
  when = "mode == 'strict'"
  keep = "item.tier >= 1"
}

tier "example.org" {
  tier = 2
  type = "news"
}

check "c" {
  applies = "step.action == 'retrieve'"
  assert  = "len(step.records) > 0"
  on_fail = "refine"
  refine {
    op          = "REPLACE"
    set_filters = { dates = ["last month"] }
  }
}

loop {
  ttl     = "2m"
  workers = 2
}

prompt "writer" {
  template = "Write about {{.Query}}"
}

test "t" {
  input {
    query   = "status"
    intents = [{ type = "generic" }]
  }
  expect {
    edges = { h0 = ["h1"] }
    mode  = "discovery"
  }
}
