// Package redact hides secrets (tokens, API keys) in the strings, errors,
// log arguments and records a program writes. The engine, the plugin host
// and plugins use the same Redactor, so a secret is hidden the same way
// wherever it would appear.
package redact

import (
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Mask replaces a secret.
const Mask = "[REDACTED]"

// minSecret is the shortest value treated as a secret; shorter ones would
// mangle ordinary text and are no real secret.
const minSecret = 4

// Redactor replaces known secrets. A nil Redactor hides nothing.
type Redactor struct {
	replacer *strings.Replacer // nil: no secret values
	// secrets are the strings replacer replaces (and as bytes): a text
	// that holds none is returned as it is, without the replacer's copy.
	secrets      []string
	secretsBytes [][]byte
	shapes       bool // also hide token-shaped text (WithTokenShapes)
}

// New returns a redactor for secrets; empty and very short values are ignored.
func New(secrets ...string) *Redactor {
	set := map[string]bool{}
	for _, s := range secrets {
		if len(s) < minSecret {
			continue
		}
		for _, sp := range spellings(s) {
			if len(sp) >= minSecret {
				set[sp] = true
			}
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
	asBytes := make([][]byte, len(list))
	for i, s := range list {
		asBytes[i] = []byte(s)
	}
	return &Redactor{replacer: strings.NewReplacer(pairs...), secrets: list, secretsBytes: asBytes}
}

// tokenShapes matches text shaped like a credential whatever its value: a
// bearer token after "Bearer", and an OpenAI-style "sk-" key.
var tokenShapes = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(bearer\s+)[^\s"',;]+|\bsk-[A-Za-z0-9_\-]{6,}`) })

// WithTokenShapes returns a copy of r that also hides text shaped like a
// credential (a bearer token, an "sk-" API key) whose value it was not
// given: for text from a remote service that may echo a key back.
func (r *Redactor) WithTokenShapes() *Redactor {
	c := &Redactor{shapes: true}
	if r != nil {
		c.replacer, c.secrets, c.secretsBytes = r.replacer, r.secrets, r.secretsBytes
	}
	return c
}

// active reports whether r hides anything.
func (r *Redactor) active() bool { return r != nil && (r.replacer != nil || r.shapes) }

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	if !r.active() {
		return s
	}
	if r.replacer != nil && r.holds(s) {
		s = r.replacer.Replace(s)
	}
	if r.shapes {
		s = tokenShapes().ReplaceAllStringFunc(s, func(m string) string {
			if len(m) >= len("bearer") && strings.EqualFold(m[:len("bearer")], "bearer") {
				return m[:len("bearer")] + " " + Mask
			}
			return Mask
		})
	}
	return s
}

// Bytes returns b with every secret masked.
func (r *Redactor) Bytes(b []byte) []byte {
	if !r.active() || !r.shapes && !r.holdsBytes(b) {
		return b
	}
	return []byte(r.String(string(b)))
}

// holds reports whether s contains one of the secrets.
func (r *Redactor) holds(s string) bool {
	for _, secret := range r.secrets {
		if strings.Contains(s, secret) {
			return true
		}
	}
	return false
}

// holdsBytes is holds for b.
func (r *Redactor) holdsBytes(b []byte) bool {
	for _, secret := range r.secretsBytes {
		if bytes.Contains(b, secret) {
			return true
		}
	}
	return false
}

// SecretKey reports whether a config key names a secret.
func SecretKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"token", "secret", "password", "passwd", "api_key", "apikey", "authorization", "credential", "private_key", "access_key"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}
