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
  ground  = "project"
  matches = "one"
}

# Date expressions ("last week", "Q1 2024", "since 2024-01-01", "between
# March and May 2025", …): the built-in finder of sdk/timerange, which knows
# the whole grammar `nous fetch` and the dates filter accept. Its matches are
# taken out of the question before the other entities look at it.
entity "dates" {
  finder = "dates"
}

# Paths in the repository: anything with a slash or a file extension, and
# the word after "in", "touched", "under", … Candidates are grounded: a
# source that knows the tree keeps those that exist (in their full form:
# "packfile" → "plumbing/format/packfile") and drops the rest, saying so.
entity "paths" {
  patterns = [
    "(?:^|[\\s(\"'`])\\.?/?([\\w.-]+(?:/[\\w.-]*)+)",
    # a file name standing alone (not the tail of a path with a slash)
    "(?:^|[^\\w/.-])([\\w-]+\\.(?:go|md|hcl|json|ya?ml|toml|txt|py|js|ts|rs|c|h|cc|java|rb|sh|proto|mod|sum|lock|cfg|ini))\\b",
    "(?i)\\b(?:touch(?:ed|es|ing)?|under|in(?:side)?|within|to|on|of)\\s+(?:the\\s+)?([\\w.-]+(?:/[\\w.-]+)*)/?",
    # what a change verb acts on: "who changed the checker" (kept only if
    # the tree has it: a bare word no source knows as a path is dropped)
    # a follow-up naming another value: "what about hclsyntax?" after "what
    # changed in hclwrite?" (a topic too; grounding keeps one reading)
    "(?i)^\\s*(?:and\\s+|but\\s+)?(?:what|how)\\s+about\\s+(?:the\\s+)?([\\w.-]+(?:/[\\w.-]+)*)/?\\s*\\??\\s*$",
    "(?i)\\b(?:chang(?:e|ed|es|ing)|modif(?:y|ied|ies|ying)|edit(?:ed|s|ing)?|rewr(?:ite|ote|itten)|refactor(?:ed|s|ing)?)\\s+(?:the\\s+)?([\\w.-]+(?:/[\\w.-]+)*)/?",
  ]
  ignore = [
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "my", "our",
    "your", "their", "which", "what", "whose", "each", "every", "any", "all",
    "some", "no", "one", "other", "same", "whole", "entire", "total", "general",
    "repository", "repo", "project", "codebase", "code", "history", "progress",
    "detail", "details", "production", "prod", "staging", "last", "past", "since",
    "commits", "commit", "changes", "change", "files", "file", "branch", "main",
    "master", "release", "tag", "time", "average", "particular", "order",
    "how", "many", "much", "who", "when", "where", "why", "is", "was", "are",
    "me", "us", "you", "them", "CI", "CD", "PR", "MR", "QA",
    "in", "on", "at", "by", "for", "from", "between", "during", "after", "before",
    "about", "with", "to", "of", "under", "inside", "within", "and", "or", "so",
    "most", "least", "recently", "lately", "today", "yesterday", "anything",
    "something", "nothing", "everything", "things", "stuff", "lot", "lots",
    "there", "here", "much", "again", "milestone", "milestones", "label", "labels",
  ]
  ground = "path"
}

# Authors: "by Radek Simko", "what did Alice commit", "Bob's commits",
# e-mail addresses; names of up to three words in any script ("Martin
# Ågren", "Diego Augusto Molina"), a middle initial included ("Junio C Hamano",
# "Jeffrey C. Ollie"). Grounded against the sources' authors and committers.
entity "authors" {
  patterns = [
    "\\b[Bb]y\\s+(\\p{Lu}[\\p{L}\\d_'-]+(?:\\s+\\p{Lu}(?:[\\p{L}\\d_'-]+|\\.)?){0,2})",
    "\\b(?:did|has|have|does)\\s+([\\p{L}\\d_.@'\\[\\]-]+(?:\\s+\\p{Lu}(?:[\\p{L}\\d_'-]+|\\.)?){0,2})\\s+(?:commit|push|merge|change|do|work|write|make|fix|add)",
    "\\b(\\p{Lu}[\\p{L}\\d_-]+(?:\\s+\\p{Lu}[\\p{L}\\d_-]+){0,2})'s\\s+(?:commits|changes|work|pushes)",
    "\\b([\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+)",
    # a follow-up naming another person: "what about Alice?"
    "^\\s*(?:[Aa]nd\\s+|[Bb]ut\\s+)?(?:[Ww]hat|[Hh]ow)\\s+about\\s+([A-Z][\\w'-]+(?:\\s+[A-Z][\\w'-]+)?)\\s*\\??\\s*$",
  ]
  ignore = [
    "I", "We", "You", "They", "He", "She", "It", "The", "This", "That", "GitLab", "YouTrack", "GitHub",
    "anyone", "someone", "somebody", "anybody", "everyone", "nobody", "who", "people", "we", "they", "you", "it",
  ]
  ground  = "author"
  matches = "one"
}

# Revisions: "since v1.17.0" (v1.17.0..HEAD), "since the last release" (the
# newest tag..HEAD), "between v1.0.0 and v1.1.0", "from v1.0.0 to v1.1.0",
# "v1.0.0..v1.1.0", "in v1.1.0" and "in the last release" (what that release
# brought: from the tag before it), "on branch release-2". Grounded as refs
# (tags, branches); the from/to groups make the range, a release group the
# release's range.
entity "revisions" {
  patterns = [
    "(?i)\\b(?:since|after)\\s+(?:the\\s+)?(?:(?:release|tag|version)\\s+)?(?P<from>v?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)",
    # "since the last release": the newest tag, which the git source finds
    "(?i)\\b(?:since|after)\\s+(?:the\\s+)?(?P<from>(?:last|latest|most recent|previous)\\s+(?:release|tag|version))\\b",
    "(?i)\\bbetween\\s+(?:(?:releases?|tags?|versions?)\\s+)?(?P<from>v?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)\\s+and\\s+(?P<to>v?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)",
    "(?i)\\bfrom\\s+(?:(?:release|tag|version)\\s+)?(?P<from>v?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)\\s+to\\s+(?:(?:release|tag|version)\\s+)?(?P<to>v?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)",
    "(?P<from>\\bv?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)\\.\\.(?P<to>v?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)?",
    # "in v1.1.0", "in release 1.1", "what's new in the latest release": the
    # tag before it (as git describe --tags finds it) to it
    "(?i)\\b(?:in|of|into)\\s+(?:the\\s+)?(?:release|tag|version)\\s+(?P<release>v?\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)",
    # without the word, three parts, or two after a v: "in v1.0", but "in
    # the v2.0 milestone" is no release
    "(?i)\\b(?:in|of|into)\\s+(?:the\\s+)?(?P<release>v?\\d+\\.\\d+\\.\\d+(?:[\\w.+-]*[\\w+])?)",
    "(?i)\\b(?:in|of|into)\\s+(?P<release>v\\d+\\.\\d+)(?:[\\s?!,;)]|\\.(?:\\s|$)|$)",
    "(?i)\\b(?:in|of)\\s+(?:the\\s+)?(?P<release>(?:last|latest|most recent|newest|current)\\s+(?:release|tag|version))\\b",
    "(?i)\\b(?:on|in|of)\\s+(?:the\\s+)?branch\\s+(?P<to>[\\w./-]+)",
    "(?i)\\b(?:on|in|of)\\s+(?:the\\s+)?(?P<to>[\\w./-]+)\\s+branch\\b",
    # the usual default branches by name: "is CI green on main?" (not main.go)
    "(?i)\\b(?:on|in|for|of)\\s+(?P<to>main|master|trunk|develop)(?:[\\s?!,;]|\\.(?:\\s|$)|$)",
  ]
  ground  = "ref"
  matches = "one"
}

# Topics: "commits about packfile", "changes regarding the parser". Not
# grounded: sources match them in messages, and ranking puts the best first.
entity "topics" {
  patterns = [
    "(?i)\\b(?:about|regarding|mention(?:s|ing|ed)?|concerning|related to|fixing|fixes)\\s+(?:the\\s+)?([\\w.-]+)",
  ]
  ignore = [
    "a", "an", "the", "this", "that", "it", "me", "us", "them", "all", "any",
    "each", "every", "some", "what", "which", "who", "how", "now", "today",
    "yesterday", "last", "past", "since", "example", "instance", "real", "sure",
    "repository", "repo", "project", "codebase", "code", "commits", "changes",
    "issues", "bugs", "tickets", "help",
  ]
}

# Targets of a command: what "close", "deploy", "restart" … act on, the
# word after the verb ("please close PAY-101", "restart the runner", "close
# #12"). A pronoun is no target: "please close it" names nothing, and
# command_action requires a target.
entity "targets" {
  pattern = "(?i)(?:^|[.?!;]\\s+)(?:please\\s+)?(?:create|close|assign|deploy|run|restart|trigger|delete|reopen)\\s+(?:(?:the|a|an)\\s+)?([\\w#./-]+)"
  ignore = [
    "it", "this", "that", "these", "those", "them", "one", "ones", "same",
    "again", "now", "please",
  ]
}

entity "statuses" {
  pattern = "(?i)\\b(open|closed|in-progress|resolved|fixed|reopened|blocked|done|merged)\\b"
  ground  = "state"
}

# Labels of issues and pull requests: "PRs labelled bug", "issues with the
# needs-triage label", "label:area/cli". Not grounded: the hosted sources
# filter by them.
entity "labels" {
  patterns = [
    "(?i)\\blabel(?:l?ed|s)?\\s*[:=]?\\s*[\"'`]?([\\w./:-]*\\w)",
    "(?i)\\bwith\\s+(?:the\\s+)?[\"'`]?([\\w./:-]*\\w)[\"'`]?\\s+label\\b",
  ]
  ignore = ["a", "an", "the", "any", "some", "no", "as", "with", "by", "in", "on", "of"]
}

# Who issues and pull requests are assigned to: "PRs assigned to octocat",
# and their milestone: "in milestone v1.1", "in the v2.0 milestone". Not
# grounded: the hosted sources filter by them.
entity "assignees" {
  pattern = "(?i)\\bassigned\\s+to\\s+@?([A-Za-z0-9][\\w-]*)"
  ignore  = ["me", "us", "you", "them", "him", "her", "anyone", "someone", "somebody", "the", "a"]
}

entity "milestones" {
  patterns = [
    "(?i)\\bmilestone\\s*[:=]?\\s*[\"'`]?([\\w.-]*\\w)",
    "(?i)\\b(?:in|for)\\s+(?:the\\s+)?[\"'`]?([\\w.-]*\\w)[\"'`]?\\s+milestone\\b",
  ]
  ignore = ["a", "an", "the", "this", "that", "next", "current", "last", "any", "with", "and", "or", "is", "are", "was", "label", "labels"]
}

entity "providers" {
  pattern = "(?i)\\b(gitlab|youtrack|github|jira|openai|ollama)\\b"
}
