package session

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/cond"
)

// Request is the request for query (in mode) asked in session s. When the
// rules' session.follow_up holds for the question alone, it continues the
// session's last turn: it takes what session.inherit names and the
// question leaves out — the earlier intents when no detect rule matched
// it (but those session.not_inherited names), each entity it names no value of, the earlier period moved by "the
// week before", "before that", … — and Request.FollowUp says what was
// taken. Otherwise the request is the question's alone.
func Request(ctx context.Context, p *engine.Planner, s *Session, query, mode string) (engine.Request, error) {
	req := engine.Request{Query: query, Mode: mode}
	rs := p.Rules()
	prev := s.Last()
	if prev == nil || rs.Session.FollowUp == nil {
		return req, nil
	}
	alone, err := p.Plan(ctx, req)
	if err != nil {
		return req, err
	}
	own := alone.Reasoning.Intents
	env := cond.NewQueryEnv(cond.NewText(query), alone.Reasoning.Entities, mode)
	for _, in := range own {
		env.IntentTypes = append(env.IntentTypes, in.Type)
	}
	follows, err := rs.Session.FollowUp.Eval(env)
	if err != nil {
		return req, fmt.Errorf("session.follow_up: %w", err)
	}
	if !follows {
		return req, nil
	}
	fu := &engine.FollowUp{Session: s.ID, Turn: s.Number(len(s.Turns) - 1), Query: prev.Query}
	entities := maps.Clone(alone.Reasoning.Entities)
	if entities == nil {
		entities = map[string][]string{}
	}
	if c, ok := answered(query, prev.Asked, entities); ok {
		entities[c.Key] = []string{c.Value}
		fu.Carried = append(fu.Carried, c)
	}
	for _, key := range rs.Session.Inherit {
		switch {
		case key == rules.InheritIntents:
			if onlyFallback(own, rs.Settings.Fallback) {
				took, said := inheritIntents(prev.Intents, rs.Session.NotInherited)
				req.Intents, fu.Carried = took, append(fu.Carried, said...)
			}
		case len(entities[key]) > 0: // the question names its own
		case key == datesKey:
			if c, ok := movePeriod(query, prev.Since, prev.Until); ok {
				fu.Carried = append(fu.Carried, c)
				if c.Value != "" {
					entities[key] = []string{c.Value}
				}
			} else if v := periodValue(prev.Since, prev.Until); v != "" {
				entities[key] = []string{v}
				c := engine.Constraint{Key: key, Value: v, Phrase: phrase(prev.Entities[key])}
				if c.Phrase == v {
					c.Phrase = ""
				}
				fu.Carried = append(fu.Carried, c)
			}
		case len(prev.Entities[key]) > 0:
			entities[key] = slices.Clone(prev.Entities[key])
			for _, v := range prev.Entities[key] {
				fu.Carried = append(fu.Carried, engine.Constraint{Key: key, Value: v})
			}
		}
	}
	req.Entities, req.FollowUp = entities, fu
	return req, nil
}

// answered reads a question that follows one asked back for a value that
// matched several things (which Jeff?): the candidate it names, or the
// option's number, is the value; a question naming none keeps the value as
// first written, so it is asked back again rather than answered for all
// candidates. False when the earlier turn asked nothing of the kind or
// the question names the entity itself.
func answered(query string, asked *engine.Ambiguity, entities map[string][]string) (engine.Constraint, bool) {
	if asked == nil || asked.Type != engine.AmbiguityMultipleMatches || asked.Entity == "" || len(entities[asked.Entity]) > 0 {
		return engine.Constraint{}, false
	}
	c := engine.Constraint{Key: asked.Entity, Value: asked.Value, Reason: "asked back: " + asked.Message}
	q := strings.ToLower(strings.TrimSpace(query))
	if n, err := strconv.Atoi(strings.TrimRight(q, ".)")); err == nil && n >= 1 && n <= len(asked.Candidates) {
		c.Value, c.Phrase = asked.Candidates[n-1], strings.TrimSpace(query)
		return c, true
	}
	named := false
	for _, cand := range asked.Candidates {
		// The longest candidate named wins: "Jeff King" over "Jeff".
		if strings.Contains(q, strings.ToLower(cand)) && (!named || len(cand) > len(c.Value)) {
			c.Value, named = cand, true
		}
	}
	return c, c.Value != ""
}

// inheritIntents are the earlier intents a follow-up takes, and what it
// says of them: an intent in notInherited (a greeting, help, a command) is
// not taken, and said so; nil intents leave the question to its own.
func inheritIntents(prev []engine.Intent, notInherited []string) ([]engine.Intent, []engine.Constraint) {
	var took []engine.Intent
	var said []engine.Constraint
	for _, in := range prev {
		if slices.Contains(notInherited, in.Type) {
			said = append(said, engine.Constraint{Key: engine.CarriedIntent, Phrase: "intent " + in.Type,
				Reason: "session.not_inherited: the question is read on its own"})
			continue
		}
		took = append(took, in)
		said = append(said, engine.Constraint{Key: engine.CarriedIntent, Value: in.Type})
	}
	return took, said
}

// datesKey is the entity holding the question's period.
const datesKey = "dates"

// onlyFallback reports whether no detect rule matched: the question was
// planned with the fallback template alone.
func onlyFallback(intents []engine.Intent, fallback string) bool {
	return len(intents) == 0 || len(intents) == 1 && intents[0].Type == fallback
}

func phrase(values []string) string {
	if len(values) == 1 {
		return values[0]
	}
	return ""
}
