# Logical data sources. Plans name "gitlab", "youtrack", "generic" and
# "github" (hosted.hcl); which plugin serves them depends on the environment. The
# defaults read only the user's own data: the local git repository, and the
# hosted project its origin remote names (git_remote) on GitHub or GitLab,
# or YouTrack, once a token says so: without one nous stays offline. The example
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

# Commits: GitLab with GITLAB_TOKEN, unless the origin remote is elsewhere
# (a GitHub clone reads its own history, whatever tokens are set), else the
# local git repository.
source "gitlab" {
  plugin   = env("GITLAB_TOKEN", "") != "" && (git_remote(".").kind == "gitlab" || git_remote(".").host == "") ? "builtin:gitlab" : "builtin:git"
  priority = 10
  config = env("GITLAB_TOKEN", "") != "" && (git_remote(".").kind == "gitlab" || git_remote(".").host == "") ? {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN", "")
    projects = git_remote(".").kind == "gitlab" ? [git_remote(".").path] : []
    } : {
    path  = "."
    stats = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != ""
  }
}

# Issues: YouTrack with YOUTRACK_TOKEN, else the project of the origin
# remote: on GitHub with GITHUB_TOKEN (or GH_TOKEN), on GitLab with
# GITLAB_TOKEN (also without an origin: the question names the project),
# else not configured: issue questions then say so and what to set.
source "youtrack" {
  plugin   = env("YOUTRACK_TOKEN", "") != "" ? "builtin:youtrack" : git_remote(".").kind == "github" && env("GITHUB_TOKEN", env("GH_TOKEN", "")) != "" ? "builtin:github" : env("GITLAB_TOKEN", "") != "" && (git_remote(".").kind == "gitlab" || git_remote(".").host == "") ? "builtin:gitlab" : ""
  kind     = "issue"
  setup    = git_remote(".").kind == "github" ? "set GITHUB_TOKEN (or GH_TOKEN) to read the issues of ${git_remote(".").path} on GitHub, or YOUTRACK_URL and YOUTRACK_TOKEN" : git_remote(".").kind == "gitlab" ? "set GITLAB_TOKEN to read the issues of ${git_remote(".").path} on GitLab, or YOUTRACK_URL and YOUTRACK_TOKEN" : git_remote(".").host != "" ? "set YOUTRACK_URL and YOUTRACK_TOKEN; for the issues on the origin's host (${git_remote(".").host}), GITHUB_API_URL and GITHUB_TOKEN (GitHub Enterprise) or GITLAB_URL and GITLAB_TOKEN (a self-hosted GitLab)" : "set YOUTRACK_URL and YOUTRACK_TOKEN (or GITLAB_TOKEN to use GitLab issues)"
  priority = 10
  config = env("YOUTRACK_TOKEN", "") != "" ? {
    base_url = env("YOUTRACK_URL", "")
    token    = env("YOUTRACK_TOKEN", "")
    } : git_remote(".").kind == "github" && env("GITHUB_TOKEN", env("GH_TOKEN", "")) != "" ? {
    repo  = git_remote(".").path
    token = env("GITHUB_TOKEN", env("GH_TOKEN", ""))
    } : env("GITLAB_TOKEN", "") != "" && (git_remote(".").kind == "gitlab" || git_remote(".").host == "") ? {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN", "")
    projects = git_remote(".").kind == "gitlab" ? [git_remote(".").path] : []
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
