# Logical data sources. Plans name "gitlab" and "youtrack"; which plugin
# serves them depends on the environment, so the defaults also work offline:
# without GITLAB_TOKEN commits come from the local git repository (builtin:git),
# and without YOUTRACK_TOKEN issues come from a JSON-lines file (builtin:file).
# Each plugin gets only the config keys it understands.

source "gitlab" {
  plugin   = env("GITLAB_TOKEN", "") != "" ? "builtin:gitlab" : "builtin:git"
  priority = 10
  config = env("GITLAB_TOKEN", "") != "" ? {
    base_url = env("GITLAB_URL", "https://gitlab.com")
    token    = env("GITLAB_TOKEN", "")
    } : {
    path = "."
  }
}

source "youtrack" {
  plugin   = env("YOUTRACK_TOKEN", "") != "" ? "builtin:youtrack" : "builtin:file"
  priority = 10
  config = env("YOUTRACK_TOKEN", "") != "" ? {
    base_url = env("YOUTRACK_URL", "")
    token    = env("YOUTRACK_TOKEN", "")
    } : {
    path   = "examples/data/issues.jsonl"
    source = "issues" # its rows name no source; tiers.hcl ranks "issues"
  }
}

# Unstructured source of the fallback template (priority 5 in the documents):
# news items from the tier-table sites, so the strict, discovery and monitor
# modes have something to keep, flag and compare.
source "generic" {
  plugin   = "builtin:file"
  priority = 5
  config = {
    path = "examples/data/news.jsonl"
  }
}
