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
	configs := make([]map[string]any, 0, len(rs.Sources)+len(rs.Agents))
	for _, s := range rs.Sources {
		configs = append(configs, s.Config)
	}
	for _, ag := range rs.Agents {
		configs = append(configs, ag.Config)
	}
	for _, config := range configs {
		for k, v := range config {
			if s, ok := v.(string); ok && redact.SecretKey(k) {
				out = append(out, s)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
