# Entity extractors: each pattern's value is its first capture group (when it
# matched), else the whole match. Values keep first-seen order.

entity "projects" {
  patterns = [
    "(?i)\\bprojects?[:=\\s]+([A-Za-z0-9][\\w.-]*(?:/[\\w.-]+)*)",
    "(?i)\\brepo(?:sitory)?[:=\\s]+([A-Za-z0-9][\\w.-]*(?:/[\\w.-]+)*)",
    "\\b([A-Za-z0-9][\\w.-]*/[A-Za-z0-9][\\w.-]*(?:/[\\w.-]+)*)",
  ]
}

# The date expressions sdk/timerange resolves (case-insensitive).
entity "dates" {
  patterns = [
    "(?i)\\b(today|yesterday)\\b",
    "(?i)\\b((?:this|last) (?:week|month))\\b",
    "(?i)\\b(last \\d+ days?)\\b",
    "\\b(\\d{4}-\\d{2}-\\d{2}(?:\\.\\.\\d{4}-\\d{2}-\\d{2})?)\\b",
  ]
}

entity "statuses" {
  pattern = "(?i)\\b(open|closed|in-progress|resolved|fixed|reopened|blocked|done)\\b"
}

entity "providers" {
  pattern = "(?i)\\b(gitlab|youtrack|github|jira|openai|ollama)\\b"
}
