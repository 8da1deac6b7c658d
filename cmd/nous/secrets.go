package main

import (
	"slices"
	"strings"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// secretEnv are environment variables whose values are redacted from all
// output even when the rules never read them (plugins read them directly).
var secretEnv = []string{"OPENAI_API_KEY", "NOUS_OPENAI_API_KEY", "GITLAB_TOKEN", "YOUTRACK_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
	"TEMPORAL_API_KEY", "TEMPORAL_TLS_CLIENT_KEY_DATA"}

// minEnvSecret is the shortest value of a secret-named variable of the
// process environment that is masked: shorter ones ("true", "1") are flags
// whose masking would only mangle output.
const minEnvSecret = 8

// redactor masks the secrets of rs: the one redactor of a command, shared
// by the plugin host, the engine and the output.
func (a *app) redactor(rs *rules.Ruleset) *redact.Redactor {
	return redact.New(a.secrets(rs)...)
}

// secrets lists every value the CLI hides from its output, logs and errors:
// the secret environment variables, the values of every variable of the
// process environment whose name looks secret (a file source reading
// /proc/self/environ, a record quoting a CI variable), what the rules read
// through env() from secret-looking variables, and config values of sources
// and agents under secret-looking keys. The plugin host and the engine hide
// the same list.
func (a *app) secrets(rs *rules.Ruleset) []string {
	var out []string
	for _, name := range secretEnv {
		if v, ok := a.lookupEnv(name); ok {
			out = append(out, v)
		}
	}
	if a.environ != nil {
		out = append(out, environSecrets(a.environ())...)
	}
	return append(out, rulesetSecrets(rs)...)
}

// environSecrets are the values in env (NAME=value lines) of variables
// whose names look secret (redact.SecretKey), minEnvSecret bytes or longer.
func environSecrets(env []string) []string {
	var out []string
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if ok && len(value) >= minEnvSecret && redact.SecretKey(name) {
			out = append(out, value)
		}
	}
	return out
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
