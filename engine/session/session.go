// Package session keeps the conversations of `nous ask --session ID`: each
// question and its (redacted, bounded) answer, stored under the user's
// state directory, and reads a follow-up question in the light of the turn
// before it.
package session

import (
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// Session is a conversation: its turns, oldest first.
type Session struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Turns   []Turn    `json:"turns"`
	// Dropped counts turns the bounds removed, so a turn's number stays
	// the same when older ones go.
	Dropped int `json:"dropped,omitempty"`
	// Expired is set by Load when the session existed but was older than
	// max_age: it starts again, empty.
	Expired bool `json:"-"`
}

// fileVersion is the version of the session file format.
const fileVersion = 1

// Turn is one question of a session and what nous understood and answered.
type Turn struct {
	Interaction string              `json:"interaction_id"`
	At          time.Time           `json:"at"`
	Query       string              `json:"query"`
	Status      string              `json:"status"`
	Answer      string              `json:"answer"` // the report, secrets masked, cut to max_answer_bytes
	Intents     []engine.Intent     `json:"intents,omitempty"`
	Entities    map[string][]string `json:"entities,omitempty"`
	Since       time.Time           `json:"since,omitzero"` // the question's period, when it named one
	Until       time.Time           `json:"until,omitzero"`
	// Asked is what the turn asked back (status needs_clarification): the
	// next question may answer it.
	Asked *engine.Ambiguity `json:"asked,omitempty"`
}

// Last returns the latest turn, or nil for a new session.
func (s *Session) Last() *Turn {
	if s == nil || len(s.Turns) == 0 {
		return nil
	}
	return &s.Turns[len(s.Turns)-1]
}

// Number is the number of the turn at index i, counting dropped turns.
func (s *Session) Number(i int) int { return s.Dropped + i + 1 }

// Conversation returns the last n turns as the agents see them, oldest
// first.
func (s *Session) Conversation(n int) []sdk.Turn {
	if s == nil || n <= 0 || len(s.Turns) == 0 {
		return nil
	}
	turns := s.Turns[max(len(s.Turns)-n, 0):]
	out := make([]sdk.Turn, len(turns))
	for i, t := range turns {
		out[i] = sdk.Turn{Query: t.Query, Answer: t.Answer}
	}
	return out
}
