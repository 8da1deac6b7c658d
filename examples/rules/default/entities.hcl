# Entity extractors: each pattern's value is its first capture group (when it
# matched), else the whole match. Values in `ignore` (any case) are dropped;
# the rest keep first-seen order without duplicates.

# Project names and keys. Regular expressions here have no lookahead, so the
# patterns capture whatever word stands in a project's place and `ignore`
# drops the words that are not names ("this repository", "which project",
# "repository last week").
entity "projects" {
  patterns = [
    # project payments, project: nous, repo=group/api, repository nous
    "(?i)\\b(?:projects?|repo(?:sitory)?)[:=\\s]+([A-Za-z0-9][\\w.-]*(?:/[\\w.-]+)*)",
    # the payments project, the nous repo
    "(?i)\\b([A-Za-z0-9][\\w.-]*)\\s+(?:project|repo(?:sitory)?)\\b",
    # group/name paths
    "\\b([A-Za-z][\\w.-]*/[A-Za-z0-9][\\w.-]*(?:/[\\w.-]+)*)",
    # in payments last week, into payments-service yesterday, in the backend today
    "(?i)\\bin(?:to)?\\s+(?:the\\s+)?([A-Za-z][\\w./-]*)\\s+(?:today|yesterday|this (?:week|month)|last|since|between|during|\\d{4}-\\d{2}-\\d{2})\\b",
    # issue keys: PAY-101
    "\\b([A-Z][A-Z0-9]{1,9})-\\d+\\b",
    # upper-case keys: bugs in PAY, does ABC have, what happened with OPS
    "\\b(?:in|for|of|with|does|do|did)\\s+([A-Z][A-Z0-9]{1,9})\\b",
  ]
  ignore = [
    # articles, pronouns, determiners
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "my", "our",
    "your", "their", "which", "what", "whose", "each", "every", "any", "all",
    "some", "no", "one", "other", "same", "whole", "entire", "current", "main",
    # prepositions and conjunctions
    "in", "into", "on", "of", "for", "to", "from", "by", "with", "at", "about",
    "across", "per", "and", "or", "but", "as",
    # verbs
    "is", "was", "are", "were", "be", "been", "has", "have", "had", "do", "does",
    "did", "going", "doing", "look", "looks", "looking",
    # status words: the nous repo status, project health
    "status", "health", "healthy",
    # time words
    "last", "next", "previous", "today", "yesterday", "since", "week",
    "month",
    # the words for a project itself: in the repository last week
    "project", "projects", "repo", "repository", "codebase", "code",
    # in progress, in total, in general, in production
    "progress", "total", "general", "detail", "details", "production", "prod",
    "staging",
    # acronyms and standards that look like keys (not api, ui or db: the
    # list ignores case, and those are likely repository names)
    "CI", "CD", "QA", "PR", "MR", "SLA", "ISO", "UTF", "SHA", "HTTP", "COVID",
    # sites of the tier table are sources, not projects
    "PTT",
  ]
}

# The date expressions sdk/timerange resolves (case-insensitive). Several
# dates resolve to their union, so "between 2024-01-01 and 2024-01-31" is
# that range. A date after since/after/before/until is an open range that
# timerange cannot express: the first capture group is then that word, which
# `ignore` drops, rather than the date alone, which would mean that one day.
entity "dates" {
  patterns = [
    "(?i)\\b(today|yesterday|(?:this|last) (?:week|month)|last [1-9]\\d{0,4} days?)\\b",
    "(?i)\\b(?:(since|after|before|until)\\s+)?\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])(?:\\.\\.\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01]))?\\b",
  ]
  ignore = ["since", "after", "before", "until"]
}

entity "statuses" {
  pattern = "(?i)\\b(open|closed|in-progress|resolved|fixed|reopened|blocked|done)\\b"
}

entity "providers" {
  pattern = "(?i)\\b(gitlab|youtrack|github|jira|openai|ollama)\\b"
}
