# The default rules with the bundled example data (examples/data) in place
# of an issue tracker and a news feed: the tutorial's and the tests' data,
# never the user's. Every other file of this directory is a link to
# examples/rules/default. Use it with --rules examples/rules/example-data.
# Paths are relative to this file; nous has a copy of the data built in,
# used when examples/data is not next to it.

# Commits: as in the default rules; without a path, the git source reads
# the working directory's repository.
source "gitlab" {
  plugin   = env("GITLAB_TOKEN", "") != "" ? "builtin:gitlab" : "builtin:git"
  priority = 10
  config = env("GITLAB_TOKEN", "") != "" ? {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN", "")
  } : {}
}

# Issues: 40 made-up issues in projects PAY, SHOP and OPS.
source "youtrack" {
  plugin   = "builtin:file"
  priority = 10
  config = {
    path   = "../../data/issues.jsonl"
    source = "issues" # its rows name no source; tiers.hcl ranks "issues"
  }
}

# The fallback's source: news items from the tier-table sites, so the
# strict, discovery and monitor modes have something to keep, flag and
# compare.
source "generic" {
  plugin   = "builtin:file"
  priority = 5
  config = {
    path = "../../data/news.jsonl"
  }
}
