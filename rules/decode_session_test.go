package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionBlock(t *testing.T) {
	const entity = "entity \"paths\" {\n  pattern = \"x\"\n}\nintent \"conversation\" {}\n"
	tests := []struct {
		name, src string
		check     string // the diagnostic expected, "" for none
		line      int
	}{
		{"defaults", "", "", 0},
		{"all set", entity + `session {
  max_turns        = 5
  max_answer_bytes = 100
  max_sessions     = 7
  max_age          = "2h"
  context_turns    = 0
  follow_up        = "query matches '^and'"
  inherit          = ["intents", "paths"]
  not_inherited    = ["conversation"]
}`, "", 0},
		{"max_turns below 1", "session {\n  max_turns = 0\n}\n", CheckOutOfRange, 2},
		{"negative context", "session {\n  context_turns = -1\n}\n", CheckOutOfRange, 2},
		{"bad age", "session {\n  max_age = \"soon\"\n}\n", CheckInvalidValue, 2},
		{"zero age", "session {\n  max_age = \"0s\"\n}\n", CheckOutOfRange, 2},
		{"bad condition", "session {\n  follow_up = \"item.tier > 1\"\n}\n", CheckExpr, 2},
		{"unknown intent", "session {\n  not_inherited = [\"greeting\"]\n}\n", CheckUnknownReference, 2},
		{"unknown entity", entity + "session {\n  inherit = [\"intents\", \"pathz\"]\n}\n", CheckUnknownReference, 6},
		{"unknown attribute", "session {\n  turns = 3\n}\n", CheckSchema, 2},
		{"second block", "session {}\nsession {}\n", CheckDuplicateName, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := Parse("session.hcl", []byte(tt.src))
			require.NotNil(t, rs)
			if tt.check == "" {
				require.Empty(t, diags, diags.Error())
				return
			}
			require.Len(t, diags, 1, diags.Error())
			assert.Equal(t, tt.check, CheckName(diags[0]))
			assert.Equal(t, tt.line, diags[0].Subject.Start.Line)
		})
	}

	rs, diags := Parse("d.hcl", nil)
	require.Empty(t, diags)
	assert.Equal(t, Session{MaxTurns: 20, MaxAnswerBytes: 4000, MaxSessions: 100, MaxAge: 30 * 24 * time.Hour, ContextTurns: 3}, rs.Session,
		"rules without a session block keep the bounds and carry nothing over")

	rs, diags = Parse("s.hcl", []byte(tests[1].src))
	require.Empty(t, diags)
	s := rs.Session
	assert.Equal(t, []any{5, 100, 7, 2 * time.Hour, 0, []string{"intents", "paths"}, []string{"conversation"}},
		[]any{s.MaxTurns, s.MaxAnswerBytes, s.MaxSessions, s.MaxAge, s.ContextTurns, s.Inherit, s.NotInherited})
	require.NotNil(t, s.FollowUp)
}
