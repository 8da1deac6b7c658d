package main

import (
	"slices"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// secretEnv are environment variables whose values are redacted from all
// output even when the rules never read them (plugins read them directly).
var secretEnv = []string{"OPENAI_API_KEY", "NOUS_OPENAI_API_KEY", "GITLAB_TOKEN", "YOUTRACK_TOKEN"}

// secrets lists every value the CLI hides from its output, logs and errors:
// the secret environment variables, what the rules read through env() from
// secret-looking variables, and config values of sources and agents under
// secret-looking keys. The plugin host and the engine hide the same list.
func (a *app) secrets(rs *rules.Ruleset) []string {
	var out []string
	for _, name := range secretEnv {
		if v, ok := a.lookupEnv(name); ok {
			out = append(out, v)
		}
	}
	return append(out, rulesetSecrets(rs)...)
}

// rulesetSecrets are the ruleset's env() secrets and the config values of
// its sources and agents under secret-looking keys.
func rulesetSecrets(rs *rules.Ruleset) []string {
	if rs == nil {
		return nil
	}
	out := rs.Secrets()
	for _, s := range rs.Sources {
		out = configSecrets(out, s.Config, false)
	}
	for _, ag := range rs.Agents {
		out = configSecrets(out, ag.Config, false)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// configSecrets appends the strings in v that sit under a secret-looking
// key at any depth: token = "…", but also headers = { PRIVATE-TOKEN = "…" }
// and api_keys = ["…", "…"].
func configSecrets(out []string, v any, underSecretKey bool) []string {
	switch v := v.(type) {
	case string:
		if underSecretKey {
			out = append(out, v)
		}
	case map[string]any:
		for k, x := range v {
			out = configSecrets(out, x, underSecretKey || redact.SecretKey(k))
		}
	case []any:
		for _, x := range v {
			out = configSecrets(out, x, underSecretKey)
		}
	}
	return out
}
