package rules

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
)

// Session bounds used where the session block leaves them unset.
const (
	DefaultMaxTurns       = 20
	DefaultMaxAnswerBytes = 4000
	DefaultMaxSessions    = 100
	DefaultMaxAge         = 30 * 24 * time.Hour
	DefaultContextTurns   = 3
)

// defaultSession is the session block of rules that have none: the bounds,
// and no question is a follow-up.
func defaultSession() Session {
	return Session{MaxTurns: DefaultMaxTurns, MaxAnswerBytes: DefaultMaxAnswerBytes, MaxSessions: DefaultMaxSessions,
		MaxAge: DefaultMaxAge, ContextTurns: DefaultContextTurns}
}

func (d *decoder) decodeSession(b *hcl.Block) {
	if !d.single(&d.sessionAt, b) {
		return
	}
	c := d.content(b.Body, sessionSchema)
	s := &d.rs.Session
	for _, f := range []struct {
		name  string
		dst   *int
		least int
	}{{"max_turns", &s.MaxTurns, 1}, {"max_answer_bytes", &s.MaxAnswerBytes, 1}, {"max_sessions", &s.MaxSessions, 1}, {"context_turns", &s.ContextTurns, 0}} {
		if d.int(c.Attributes, f.name, f.dst) {
			d.atLeast(c.Attributes, f.name, *f.dst, f.least)
		}
	}
	if d.duration(c.Attributes, "max_age", &s.MaxAge) && s.MaxAge <= 0 {
		d.add(Error(CheckOutOfRange, c.Attributes["max_age"].Expr.Range(), `"max_age" out of range`,
			fmt.Sprintf("max_age must be positive, got %s.", s.MaxAge)))
	}
	d.condition(c.Attributes, "follow_up", cond.QueryEnv{}, &s.FollowUp)
	if d.strs(c.Attributes, "inherit", &s.Inherit) {
		for i, at := range elementRanges(c.Attributes["inherit"], len(s.Inherit)) {
			if s.Inherit[i] != InheritIntents {
				d.refs = append(d.refs, reference{kind: "entity", name: s.Inherit[i], where: at, attr: "inherit"})
			}
		}
	}
	if d.strs(c.Attributes, "not_inherited", &s.NotInherited) {
		for i, at := range elementRanges(c.Attributes["not_inherited"], len(s.NotInherited)) {
			d.refs = append(d.refs, reference{kind: "intent", name: s.NotInherited[i], where: at, attr: "not_inherited"})
		}
	}
}
