# Agents of the actor-critic loop (research-loop document). Offline and
# deterministic by default (builtin:template); any OpenAI-compatible endpoint
# when NOUS_OPENAI_BASE_URL or OPENAI_API_KEY is set (builtin:openai reads
# its base URL, key and model from the environment). Timeouts are the
# document's: analyst 60 s, critic 30 s, writer 45 s.
#
# When the endpoint cannot be reached (connection refused, DNS failure, 5xx
# after retries, a timeout), the offline template agent answers instead
# (fallback), with a warning on stderr and a caveat in the result.
#
# Hypotheses name these agents by role (role = "writer"); the executor also
# calls the analyst and critic around every writer step.

agent "analyst" {
  plugin   = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"
  fallback = "builtin:template"
  timeout  = "60s"
}

agent "critic" {
  plugin   = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"
  fallback = "builtin:template"
  timeout  = "30s"
}

agent "writer" {
  plugin   = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"
  fallback = "builtin:template"
  timeout  = "45s"
}

# Words the question nous asks back when the question is ambiguous (a
# command with nothing to act on, a name matching several people).
agent "clarification" {
  plugin   = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"
  fallback = "builtin:template"
  timeout  = "30s"
}

# The validator block's agent (adaptive-reasoning document): it judges each
# pass's steps; 30 s like the critic.
agent "validator" {
  plugin   = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"
  fallback = "builtin:template"
  timeout  = "30s"
}
