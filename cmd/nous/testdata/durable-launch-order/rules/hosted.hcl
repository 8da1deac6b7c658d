# Pull requests, releases and CI (workflow runs) of the GitHub project the
# origin remote names, with GITHUB_TOKEN or GH_TOKEN (GitHub Enterprise:
# GITHUB_API_URL too, which also makes its host known). When the origin is
# on GitLab and GITLAB_TOKEN is set, plan validation rebinds these
# retrievals to the "gitlab" source, which serves merge requests, releases
# and pipelines; else the setup says what to set.
source "github" {
  plugin   = git_remote(".").kind == "github" && env("GITHUB_TOKEN", env("GH_TOKEN", "")) != "" ? "builtin:github" : ""
  setup    = git_remote(".").kind == "github" ? "set GITHUB_TOKEN (or GH_TOKEN) to read ${git_remote(".").path} on GitHub" : git_remote(".").kind == "gitlab" ? "set GITLAB_TOKEN to read ${git_remote(".").path} on GitLab (and GITLAB_URL for a self-hosted GitLab)" : git_remote(".").host != "" ? "the origin remote (${git_remote(".").host}) is not known as GitHub or GitLab: for GitHub Enterprise set GITHUB_API_URL and GITHUB_TOKEN, for a self-hosted GitLab GITLAB_URL and GITLAB_TOKEN" : "the repository has no origin remote on GitHub or GitLab: run nous in a clone of the project, with GITHUB_TOKEN (or GH_TOKEN) or GITLAB_TOKEN set"
  priority = 10
  config = {
    repo  = git_remote(".").path
    token = env("GITHUB_TOKEN", env("GH_TOKEN", ""))
  }
}
