# Logical data sources. Plans name "gitlab", "youtrack" and "generic"; which
# plugin serves them depends on the environment. The defaults read only the
# user's own data: the local git repository, GitLab or YouTrack. The example
# data (examples/data) is read only by rules that point at it, such as
# examples/rules/example-data.
# Each plugin gets only the config keys it understands.
#
# Line statistics (files, additions, deletions, paths): the git source
# computes them (stats) only when an agent reads record fields, which the
# LLM agent's prompt does and the offline template agent never does, so
# stats follows agents.hcl's choice of builtin:openai. `nous ask --format
# json`, which shows record fields, asks for them anyway (the with_stats
# filter).

# Commits: GitLab with GITLAB_TOKEN, else the local git repository.
source "gitlab" {
  plugin   = env("GITLAB_TOKEN", "") != "" ? "builtin:gitlab" : "builtin:git"
  priority = 10
  config = env("GITLAB_TOKEN", "") != "" ? {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN", "")
    } : {
    path  = "."
    stats = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != ""
  }
}

# Issues: YouTrack with YOUTRACK_TOKEN, else GitLab issues with GITLAB_TOKEN,
# else not configured: issue questions then say so and how to configure it.
source "youtrack" {
  plugin   = env("YOUTRACK_TOKEN", "") != "" ? "builtin:youtrack" : env("GITLAB_TOKEN", "") != "" ? "builtin:gitlab" : ""
  kind     = "issue"
  setup    = "set YOUTRACK_URL and YOUTRACK_TOKEN (or GITLAB_TOKEN to use GitLab issues)"
  priority = 10
  config = env("YOUTRACK_TOKEN", "") != "" ? {
    base_url = env("YOUTRACK_URL", "")
    token    = env("YOUTRACK_TOKEN", "")
    } : env("GITLAB_TOKEN", "") != "" ? {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN", "")
  } : {}
}

# Unstructured source of the fallback template (priority 5 in the
# documents): questions that name neither commits nor issues are answered
# from the local git repository.
source "generic" {
  plugin   = "builtin:git"
  priority = 5
  config = {
    path  = "."
    stats = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != ""
  }
}
