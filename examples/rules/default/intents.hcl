# Intent templates: the seven intent types of the reasoning-structure
# document with their exact hypothesis descriptions and dependency patterns,
# the retrieval plans of the retrieval-planner document, and a fallback.
#
# Hypothesis actions tell the executor what a step does:
#   retrieve   run the retrieval plans bound to the step (retrieve.hypothesis,
#              by default the intent's first retrieve step)
#   filter     keep the records of earlier steps that match the entity filters
#   rank       order earlier steps' records by relevance to the question
#   aggregate  merge earlier steps' records into one set
#   stats      compute counts and trends over earlier steps' records
#   agent      run the agent role named by role (analyst, critic, writer)
#   (none)     record the step in the trace without doing anything

intent "query_commits" {
  pattern = "chain"

  detect {
    # "what's new in v1.2?" and "what went into v1.2?" ask for the changes
    # too. A question about pull
    # requests ("which PRs were merged?") is not one about commits unless it
    # says so.
    when       = "(query matches '(?i)\\\\b(?:commit(?:s|ted)?|pushed|merged?|changed?|changes|merge requests?)\\\\b' || query matches '(?i)\\\\b(?:what(?:.s| is| was) new|went into)\\\\b') && !(query matches '(?i)\\\\b(?:pull[ -]requests?|PRs?)\\\\b' && !(query matches '(?i)\\\\bcommit')) && !(query matches '(?i)\\\\b(?:(?:files?|director(?:y|ies)|dirs?|folders?|paths?|packages?|modules?)\\\\b[^?.!]*\\\\b(?:chang(?:ed|es)?|modified|touched|edited)\\\\b[^?.!]*\\\\b(?:the )?most|most[ -](?:changed|modified|touched|edited|active)\\\\s+(?:files?|director(?:y|ies)|dirs?|folders?|paths?|packages?)|hot ?spots?|churn|lines?(?: of code)?\\\\b[^?.!]*\\\\b(?:added|removed|deleted|changed|written)|(?:largest|biggest)\\\\s+(?:commits?|changes?))\\\\b')"
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
    action      = "agent"
    role        = "writer"
  }

  retrieve "commits" {
    description = "Retrieve commit data from GitLab"
    source      = "gitlab"
    kind        = "commit"
    priority    = 10
    filters     = ["projects", "dates", "paths", "authors", "revisions", "topics"]
  }
}

# Where the code changed and by how much: the files or directories changed
# most ("hotspots", "churn"), lines added or removed, the largest commits.
# The answer counts line statistics over every commit of the period, so the
# retrieval asks the source for them (with_stats); a source that cannot
# compute them leaves the with_stats filter unapplied, which the report says
# first.
intent "query_churn" {
  pattern = "chain"

  detect {
    when       = "query matches '(?i)\\\\b(?:(?:files?|director(?:y|ies)|dirs?|folders?|paths?|packages?|modules?)\\\\b[^?.!]*\\\\b(?:chang(?:ed|es)?|modified|touched|edited)\\\\b[^?.!]*\\\\b(?:the )?most|most[ -](?:changed|modified|touched|edited|active)\\\\s+(?:files?|director(?:y|ies)|dirs?|folders?|paths?|packages?)|hot ?spots?|churn|lines?(?: of code)?\\\\b[^?.!]*\\\\b(?:added|removed|deleted|changed|written)|(?:largest|biggest)\\\\s+(?:commits?|changes?))\\\\b'"
    confidence = 0.95
  }

  hypothesis "retrieve" {
    description = "Retrieve commits with line statistics from GitLab"
    action      = "retrieve"
  }
  hypothesis "format" {
    description = "Summarise files, directories and lines changed for user"
    action      = "agent"
    role        = "writer"
  }

  retrieve "commit_stats" {
    description = "Retrieve commits with line statistics from GitLab"
    source      = "gitlab"
    kind        = "commit"
    priority    = 10
    fixed       = { with_stats = ["true"] }
    filters     = ["projects", "dates", "paths", "authors", "revisions", "topics"]
  }
}

intent "query_issues" {
  pattern = "chain"

  detect {
    # "PRs labelled bug" asks about pull requests, "bugs fixed by PRs" too.
    when       = "query matches '(?i)\\\\b(?:issues?|bugs?|tickets?|tasks?)\\\\b' && !(query matches '(?i)\\\\b(?:pull[ -]requests?|PRs?|merge requests?|MRs?)\\\\b' && !(query matches '(?i)\\\\b(?:issues?|tickets?)\\\\b'))"
    confidence = 0.85
  }

  hypothesis "retrieve" {
    description = "Retrieve issue data from YouTrack"
    action      = "retrieve"
  }
  hypothesis "filter" {
    description = "Apply filters based on entities (status, date, project)"
    action      = "filter"
  }
  hypothesis "format" {
    description = "Format issue summary for user"
    action      = "agent"
    role        = "writer"
  }

  retrieve "issues" {
    description = "Retrieve issue data from YouTrack"
    source      = "youtrack"
    kind        = "issue"
    priority    = 10
    filters     = ["projects", "dates", "statuses"]
  }
}

intent "query_analytics" {
  pattern = "chain"

  detect {
    # Counts of pull requests, CI runs or releases alone ("how many PRs were
    # merged?") are counted by their own intents.
    when       = "query matches '(?i)\\\\b(?:how many|statistics|stats|metrics?|trends?|count|average|velocity)\\\\b' && !(query matches '(?i)\\\\b(?:pull[ -]requests?|PRs?|CI|builds?|pipelines?|workflows?|workflow runs?|releases)\\\\b' && !(query matches '(?i)\\\\b(?:commit(?:s|ted)?|issues?|bugs?|tickets?|contributors?)\\\\b')) && !(query matches '(?i)\\\\b(?:(?:files?|director(?:y|ies)|dirs?|folders?|paths?|packages?|modules?)\\\\b[^?.!]*\\\\b(?:chang(?:ed|es)?|modified|touched|edited)\\\\b[^?.!]*\\\\b(?:the )?most|most[ -](?:changed|modified|touched|edited|active)\\\\s+(?:files?|director(?:y|ies)|dirs?|folders?|paths?|packages?)|hot ?spots?|churn|lines?(?: of code)?\\\\b[^?.!]*\\\\b(?:added|removed|deleted|changed|written)|(?:largest|biggest)\\\\s+(?:commits?|changes?))\\\\b')"
    confidence = 0.8
  }

  hypothesis "sources" {
    description = "Identify relevant data sources (commits, issues, metrics)"
    action      = "retrieve"
  }
  hypothesis "aggregate" {
    description = "Aggregate data from multiple sources"
    action      = "aggregate"
  }
  hypothesis "stats" {
    description = "Calculate statistics and trends"
    action      = "stats"
  }
  hypothesis "report" {
    description = "Generate analytics report with visualizations"
    action      = "agent"
    role        = "writer"
  }

  retrieve "commit_metrics" {
    description = "Retrieve commit metrics from GitLab"
    source      = "gitlab"
    kind        = "commit"
    priority    = 9
    # Unless the question is only about issues, pull requests, CI or releases
    # ("how many open bugs?", "how many PRs were merged?"): "merged" alone is
    # about commits.
    when    = "query == '' || query matches '(?i)\\\\b(?:commit(?:s|ted)?|pushe?d?|changed?|changes|contributors?|authors?)\\\\b' || !(query matches '(?i)\\\\b(?:issues?|bugs?|tickets?|tasks?|pull[ -]requests?|PRs?|merge requests?|MRs?|CI|builds?|pipelines?|workflows?|releases?)\\\\b')"
    filters = ["projects", "dates", "paths", "authors", "revisions", "topics"]
  }
  retrieve "issue_metrics" {
    description = "Retrieve issue metrics from YouTrack"
    source      = "youtrack"
    kind        = "issue"
    priority    = 9
    # Only when the question is about issues ("how many commits?" is not).
    when    = "query == '' || query matches '(?i)\\\\b(?:issues?|bugs?|tickets?|tasks?)\\\\b'"
    filters = ["projects", "dates"]
  }
}

intent "query_status" {
  # h0 and h1 run in parallel; h2 depends on both.
  pattern = "fan_in"

  detect {
    when       = "query matches '(?i)\\\\b(?:status|healthy?|how is\\\\b.*\\\\bgoing|up to date)\\\\b'"
    confidence = 0.85
  }

  hypothesis "health" {
    description = "Check system health and status"
    action      = "retrieve"
  }
  hypothesis "events" {
    description = "Gather recent events and changes"
    action      = "retrieve"
  }
  hypothesis "report" {
    description = "Synthesize overall status report"
    action      = "agent"
    role        = "writer"
  }

  retrieve "recent_commits" {
    description = "Retrieve recent commits for activity status"
    source      = "gitlab"
    kind        = "commit"
    hypothesis  = "events"
    priority    = 8
    fixed       = { dates = ["last week"] }
  }
  retrieve "open_issues" {
    description = "Retrieve open issues for health status"
    source      = "youtrack"
    kind        = "issue"
    hypothesis  = "health"
    priority    = 8
    fixed       = { statuses = ["open", "in-progress"] }
  }
  # CI health, beyond the document's two retrievals, where a hosted source
  # serves it: GitHub, or GitLab with a token (see sources.hcl).
  retrieve "ci_runs" {
    description = "Retrieve recent CI runs for build health"
    source      = "github"
    kind        = "pipeline"
    hypothesis  = "health"
    priority    = 8
    required    = false
    when        = "'github' in sources || sources['gitlab'] == 'builtin:gitlab'"
    fixed       = { dates = ["last week"] }
    filters     = ["projects", "revisions"]
  }
}

# Pull requests (merge requests on GitLab), releases and CI runs of the
# project the origin remote names: the "github" source in sources.hcl,
# rebound to GitLab when the project lives there.
intent "query_pull_requests" {
  pattern = "chain"

  detect {
    when       = "query matches '(?i)\\\\b(?:pull[ -]requests?|PRs?|merge requests?|MRs?)\\\\b'"
    confidence = 0.9
  }

  hypothesis "retrieve" {
    description = "Retrieve pull requests from GitHub or GitLab"
    action      = "retrieve"
  }
  hypothesis "filter" {
    description = "Apply filters based on entities (state, date, author, label)"
    action      = "filter"
  }
  hypothesis "format" {
    description = "Format pull request summary for user"
    action      = "agent"
    role        = "writer"
  }

  retrieve "pull_requests" {
    description = "Retrieve pull requests from GitHub or GitLab"
    source      = "github"
    kind        = "pull_request"
    priority    = 10
    filters     = ["projects", "dates", "statuses", "authors", "labels", "assignees", "milestones", "revisions"]
  }
}

intent "query_releases" {
  pattern = "chain"

  detect {
    # "what is in the latest release?", "releases this year"; not "what
    # changed since the last release?" (commits), "is the release healthy?"
    # (status) nor "what changed in CHANGELOG.md?" (a file).
    when       = "query matches '(?i)\\\\b(?:releases|release notes|(?:latest|last|newest|recent|previous|current) (?:release|version)|what(?:.s| is| was) (?:new )?in (?:the )?(?:release|v?\\\\d+\\\\.\\\\d+))\\\\b' && !(query matches '(?i)\\\\b(?:since|after|between) (?:the )?(?:(?:latest|last|previous) )?release')"
    confidence = 0.85
  }

  hypothesis "retrieve" {
    description = "Retrieve releases from GitHub or GitLab"
    action      = "retrieve"
  }
  hypothesis "format" {
    description = "Format release summary for user"
    action      = "agent"
    role        = "writer"
  }

  # "the latest release" is one; otherwise the releases of the period asked
  # for, newest first.
  retrieve "latest_release" {
    description = "Retrieve the latest release from GitHub or GitLab"
    source      = "github"
    kind        = "release"
    priority    = 10
    limit       = 1
    fixed       = { statuses = ["latest"] }
    when        = "query matches '(?i)\\\\b(?:latest|last|newest|most recent|current)\\\\s+(?:release|version)'"
    filters     = ["projects"]
  }
  retrieve "releases" {
    description = "Retrieve releases from GitHub or GitLab"
    source      = "github"
    kind        = "release"
    priority    = 10
    when        = "!(query matches '(?i)\\\\b(?:latest|last|newest|most recent|current)\\\\s+(?:release|version)')"
    filters     = ["projects", "dates", "authors"]
  }
}

intent "query_ci" {
  pattern = "chain"

  detect {
    when       = "query matches '(?i)\\\\b(?:CI|builds?|pipelines?|workflows?|workflow runs?|GitHub Actions)\\\\b'"
    confidence = 0.85
  }

  hypothesis "retrieve" {
    description = "Retrieve CI runs (workflow runs, pipelines) from GitHub or GitLab"
    action      = "retrieve"
  }
  # The report tallies the runs by state and names the latest finished
  # one: no stats step, which would make every CI question a count.
  hypothesis "format" {
    description = "Format CI health summary for user"
    action      = "agent"
    role        = "writer"
  }

  # The runs of the period asked, last week's by default ("is CI green on
  # main?"): every run of it, so counts and states are whole.
  retrieve "runs" {
    description = "Retrieve CI runs from GitHub or GitLab"
    source      = "github"
    kind        = "pipeline"
    priority    = 10
    filters     = ["projects", "dates", "revisions"]
    defaults    = { dates = ["last week"] }
  }
}

intent "command_action" {
  # nous only reads: the execute step is an effect, reported as not executed.
  pattern = "chain"
  # A command acts on something: "please close it" names nothing and is
  # asked back, also after another question ("what changed? please close
  # it": a sentence that opens with the verb is a command, never dropped).
  # Doing a thing and explaining how to do it exclude each other.
  requires  = ["targets"]
  conflicts = ["request_help"]

  detect {
    when       = "query matches '(?i)(?:^|[.?!;]\\\\s+)(please\\\\s+)?(create|close|assign|deploy|run|restart|trigger|delete|reopen)\\\\b'"
    confidence = 0.8
  }

  hypothesis "validate" {
    description = "Validate command preconditions and permissions"
    action      = "agent"
    role        = "analyst"
  }
  hypothesis "execute" {
    description = "Execute command action"
    action      = "effect"
  }
  hypothesis "verify" {
    description = "Verify command execution result"
    action      = "agent"
    role        = "writer"
  }
}

intent "request_help" {
  pattern = "chain"

  detect {
    # "documentation for X" asks for help; "what changed in docs" does not.
    when       = "query matches '(?i)\\\\b(?:help|how (?:do|can) i|what can you do|(?:documentation|docs) (?:for|on|about|of))\\\\b'"
    confidence = 0.9
  }

  hypothesis "topic" {
    description = "Identify help topic and user context"
    action      = "agent"
    role        = "analyst"
  }
  hypothesis "docs" {
    description = "Retrieve relevant documentation and examples"
    action      = "retrieve"
  }
  hypothesis "format" {
    description = "Format helpful response with examples"
    action      = "agent"
    role        = "writer"
  }

  # The sections of the repository's documentation most relevant to the
  # question. Help can do without them: none found (or no documentation
  # source) leaves the answer partial, saying so, rather than failed.
  # Sections are ranked by the question's content words: the words of
  # asking for help are left out, and release notes, which mention
  # everything once, weigh less than guides.
  retrieve "docs" {
    description = "Retrieve relevant documentation and examples"
    source      = "docs"
    kind        = "document"
    priority    = 5
    rank        = true
    rank_ignore = ["use", "using", "documentation", "docs", "doc", "help", "can", "get", "explain", "example", "examples"]
    rank_weights = {
      "CHANGELOG*"   = 0.3
      "CHANGES*"     = 0.3
      "NEWS*"        = 0.3
      "RELEASE*"     = 0.3
      "*/RelNotes/*" = 0.3
    }
    limit    = 8
    required = false
  }
}

intent "conversation" {
  detect {
    when       = "query matches '(?i)^\\\\s*(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\\\\b'"
    confidence = 0.9
  }

  hypothesis "respond" {
    description = "Generate appropriate conversational response"
    action      = "agent"
    role        = "writer"
  }
}

# Used for intent types no template above handles (with a warning), and for
# questions no detect rule matches: generic retrieval at priority 5.
intent "fallback" {
  pattern = "chain"

  hypothesis "retrieve" {
    description = "Retrieve information related to the question"
    action      = "retrieve"
  }
  hypothesis "answer" {
    description = "Summarize the findings for the user"
    action      = "agent"
    role        = "writer"
  }

  retrieve "generic" {
    description = "Retrieve related information from all sources"
    source      = "generic"
    priority    = 5
    filters     = ["projects", "dates", "statuses", "providers", "paths", "authors", "revisions", "topics"]
  }
}
