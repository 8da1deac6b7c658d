# The sources of the recorded durable run, read from the environment so
# that the rules' digest does not depend on where it was recorded.
source "gitlab" {
  plugin   = "builtin:git"
  priority = 10
  config   = { path = env("NOUS_DURABLE_REPO", ".") }
}
source "youtrack" {
  plugin   = "builtin:file"
  priority = 10
  config   = { path = env("NOUS_DURABLE_ISSUES", "issues.jsonl") }
}
source "generic" {
  plugin   = "builtin:file"
  priority = 5
  config   = { path = env("NOUS_DURABLE_ISSUES", "issues.jsonl") }
}
