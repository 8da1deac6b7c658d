package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

func TestSecrets(t *testing.T) {
	rs := &rules.Ruleset{
		Sources: []*rules.Source{{Name: "gitlab", Config: map[string]any{"token": "tok-1234", "base_url": "https://x"}}},
		Agents:  []*rules.Agent{{Name: "writer", Config: map[string]any{"api_key": "sk-abcdef", "model": "m"}}},
	}
	env := map[string]string{"GITLAB_TOKEN": "extra-secret", "HOME": "/home/me"}
	a := &app{getenv: func(k string) string { return env[k] }}
	got := a.secrets(rs)
	assert.ElementsMatch(t, []string{"extra-secret", "tok-1234", "sk-abcdef"}, got)

	r := redact.New(got...)
	assert.Equal(t, "[REDACTED] [REDACTED] https://x m [REDACTED] /home/me", r.String("tok-1234 sk-abcdef https://x m extra-secret /home/me"))
	assert.Empty(t, (&app{getenv: func(string) string { return "" }}).secrets(nil))
}

// Secrets nested in a config (a header map, a list of keys) are hidden too,
// not only top-level ones.
func TestSecretsNestedInConfig(t *testing.T) {
	rs := &rules.Ruleset{Sources: []*rules.Source{{Name: "api", Config: map[string]any{
		"headers":  map[string]any{"PRIVATE-TOKEN": "nested-tok", "Accept": "application/json"},
		"api_keys": []any{"key-one", "key-two"},
		"mirrors":  []any{map[string]any{"url": "https://m", "password": "pw-in-list"}},
	}}}}
	assert.ElementsMatch(t, []string{"key-one", "key-two", "nested-tok", "pw-in-list"}, rulesetSecrets(rs))
}
