// Package redact hides secrets (tokens, API keys) in every string, error
// and byte slice nous writes: traces, history, logs and reports.
package redact

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/nous-dev/nous/rules"
)

// Mask replaces a secret.
const Mask = "[REDACTED]"

// minSecret is the shortest value treated as a secret; shorter ones would
// mangle ordinary text.
const minSecret = 4

// Redactor replaces known secrets. A nil Redactor hides nothing.
type Redactor struct {
	replacer *strings.Replacer
}

// New returns a redactor for secrets; empty and very short values are ignored.
func New(secrets ...string) *Redactor {
	set := map[string]bool{}
	for _, s := range secrets {
		if len(s) < minSecret {
			continue
		}
		set[s] = true
		// The JSON-escaped spelling, so a secret with quotes or
		// backslashes is also caught inside rendered JSON.
		if b, err := json.Marshal(s); err == nil {
			set[string(b[1:len(b)-1])] = true
		}
	}
	if len(set) == 0 {
		return &Redactor{}
	}
	list := make([]string, 0, len(set))
	for s := range set {
		list = append(list, s)
	}
	// Longest first so a secret containing another is hidden whole;
	// then lexical, for a deterministic replacer.
	slices.SortFunc(list, func(a, b string) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(list))
	for _, s := range list {
		pairs = append(pairs, s, Mask)
	}
	return &Redactor{replacer: strings.NewReplacer(pairs...)}
}

// FromRuleset returns a redactor for the ruleset's secrets: values env()
// read from secret-looking variables and secret-looking config keys of
// sources and agents, plus extra.
func FromRuleset(rs *rules.Ruleset, extra ...string) *Redactor {
	secrets := slices.Clone(extra)
	if rs == nil {
		return New(secrets...)
	}
	secrets = append(secrets, rs.Secrets()...)
	for _, s := range rs.Sources {
		secrets = appendConfigSecrets(secrets, s.Config)
	}
	for _, a := range rs.Agents {
		secrets = appendConfigSecrets(secrets, a.Config)
	}
	return New(secrets...)
}

func appendConfigSecrets(secrets []string, config map[string]any) []string {
	for k, v := range config {
		if s, ok := v.(string); ok && SecretKey(k) {
			secrets = append(secrets, s)
		}
	}
	return secrets
}

// SecretKey reports whether a config key names a secret.
func SecretKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"token", "secret", "password", "api_key", "apikey", "authorization"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	if r == nil || r.replacer == nil {
		return s
	}
	return r.replacer.Replace(s)
}

// Bytes returns b with every secret masked.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || r.replacer == nil {
		return b
	}
	return []byte(r.replacer.Replace(string(b)))
}

// Error returns err with its message masked; it still unwraps to err.
func (r *Redactor) Error(err error) error {
	if err == nil || r == nil || r.replacer == nil {
		return err
	}
	msg := err.Error()
	if clean := r.replacer.Replace(msg); clean != msg {
		return &maskedError{msg: clean, err: err}
	}
	return err
}

type maskedError struct {
	msg string
	err error
}

func (e *maskedError) Error() string { return e.msg }
func (e *maskedError) Unwrap() error { return e.err }
