package ask

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine/session"
)

// MaxPrior bounds the earlier questions Prior reads.
const MaxPrior = 20

// Prior reads the earlier questions of a conversation (oldest first, as
// NLWeb's prev gives them, without their answers) into a session the
// next question continues: each is read as the rules read a follow-up of
// the ones before it, and what it was understood to ask — intents,
// entities, period — is its turn. Nothing is asked of any plugin. Beyond
// MaxPrior questions only the latest are read.
func (s *Service) Prior(ctx context.Context, queries []string, mode string) (*session.Session, error) {
	queries = slices.DeleteFunc(slices.Clone(queries), func(q string) bool { return strings.TrimSpace(q) == "" })
	if len(queries) == 0 {
		return nil, nil
	}
	queries = queries[max(len(queries)-MaxPrior, 0):]
	sess := &session.Session{}
	for i, q := range queries {
		req, err := session.Request(ctx, s.planner, sess, q, mode)
		if err != nil {
			return nil, fmt.Errorf("earlier question %d %q: %w", i+1, s.deps.Redactor.String(q), err)
		}
		plan, err := s.planner.Interpret(ctx, req, nil, s.deps.Clock())
		if err != nil {
			return nil, fmt.Errorf("earlier question %d %q: %w", i+1, s.deps.Redactor.String(q), err)
		}
		t := session.Turn{Query: s.deps.Redactor.String(q), At: s.deps.Clock()}
		understood(&t, plan, s.deps.Redactor)
		sess.Turns = append(sess.Turns, t)
	}
	return sess, nil
}
