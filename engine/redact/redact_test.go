package redact

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
)

func TestRedactor(t *testing.T) {
	r := New("glpat-SECRET", "glpat-SECRET-LONGER", "", "abc", `we"ird\tok`)
	tests := []struct{ in, want string }{
		{"token glpat-SECRET-LONGER here", "token [REDACTED] here"},
		{"token glpat-SECRET.", "token [REDACTED]."},
		{"abc is too short to be a secret", "abc is too short to be a secret"},
		{`{"t":"we\"ird\\tok"}`, `{"t":"[REDACTED]"}`},
		{`raw we"ird\tok`, `raw [REDACTED]`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, r.String(tt.in))
		assert.Equal(t, tt.want, string(r.Bytes([]byte(tt.in))))
	}
	err := r.Error(fmt.Errorf("fetch: 401 with glpat-SECRET: %w", io.EOF))
	assert.Equal(t, "fetch: 401 with [REDACTED]: EOF", err.Error())
	assert.True(t, errors.Is(err, io.EOF))

	var none *Redactor
	assert.Equal(t, "glpat-SECRET", none.String("glpat-SECRET"))
	assert.NoError(t, none.Error(nil))
}

func TestFromRuleset(t *testing.T) {
	rs := &rules.Ruleset{
		Sources: []*rules.Source{{Name: "gitlab", Config: map[string]any{"token": "tok-1234", "base_url": "https://x"}}},
		Agents:  []*rules.Agent{{Name: "writer", Config: map[string]any{"api_key": "sk-abcdef", "model": "m"}}},
	}
	r := FromRuleset(rs, "extra-secret")
	assert.Equal(t, "[REDACTED] [REDACTED] https://x m [REDACTED]", r.String("tok-1234 sk-abcdef https://x m extra-secret"))
}
