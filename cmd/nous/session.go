package main

import (
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/rules"
)

// sessionStore is the store of `nous ask --session` and `nous sessions`:
// the state directory ($NOUS_SESSION_DIR overrides it) with rs's bounds.
func (a *app) sessionStore(rs *rules.Ruleset) (*session.Store, error) {
	dir, err := session.Dir(a.lookupEnv)
	if err != nil {
		return nil, err
	}
	b := rs.Session
	return session.NewStore(dir, session.Bounds{MaxTurns: b.MaxTurns, MaxAnswerBytes: b.MaxAnswerBytes, MaxSessions: b.MaxSessions, MaxAge: b.MaxAge}), nil
}
