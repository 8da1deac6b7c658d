package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
)

// Ambiguity types: what a question leaves open.
const (
	// AmbiguityIntent: two intents whose answers exclude each other were
	// detected within the rules' clarify_margin of each other.
	AmbiguityIntent = "intent"
	// AmbiguityMissingEntity: an intent requires an entity the question
	// does not name.
	AmbiguityMissingEntity = "missing_entity"
	// AmbiguityMultipleMatches: a value matched several things in a source.
	AmbiguityMultipleMatches = "multiple_matches"
)

// Ambiguity is something the question leaves open. A blocking one must be
// settled by the user before anything runs; the others are said in the
// answer.
type Ambiguity struct {
	Type       string   `json:"type"`                 // intent | missing_entity | multiple_matches
	Entity     string   `json:"entity,omitempty"`     // the entity missing or matched several times
	Value      string   `json:"value,omitempty"`      // the question's words that matched several things
	Message    string   `json:"message"`              // one sentence saying what is open
	Candidates []string `json:"candidates,omitempty"` // the intents, or what the value matched, most likely first
	Blocking   bool     `json:"blocking"`
}

// clarifyEpsilon absorbs float rounding in confidence differences: 0.9-0.8
// is within a margin of 0.1.
const clarifyEpsilon = 1e-9

// Blocking returns the plan's first blocking ambiguity, or nil.
func (p *Plan) Blocking() *Ambiguity {
	for i := range p.Ambiguities {
		if p.Ambiguities[i].Blocking {
			return &p.Ambiguities[i]
		}
	}
	return nil
}

// ambiguities finds what the accepted intents leave open: conflicting
// intents within the clarify margin, and required entities the question
// does not name. Intents that merely coexist (commits and issues) are a
// question that asks two things, never an ambiguity.
func (b *builder) ambiguities() {
	margin := b.p.rules.Settings.ClarifyMargin
	for i, x := range b.acc {
		for _, y := range b.acc[i+1:] {
			if x.tpl == y.tpl || !conflicting(x.tpl.intent, y.tpl.intent) || math.Abs(x.Confidence-y.Confidence) > margin+clarifyEpsilon {
				continue
			}
			if y.Confidence > x.Confidence {
				x, y = y, x
			}
			b.plan.Ambiguities = append(b.plan.Ambiguities, Ambiguity{Type: AmbiguityIntent, Blocking: true,
				Candidates: []string{x.Type, y.Type},
				Message: fmt.Sprintf("the question reads as %s (%.2f) and as %s (%.2f), whose answers exclude each other",
					x.Type, x.Confidence, y.Type, y.Confidence)})
		}
	}
	for i, a := range b.acc {
		if slices.ContainsFunc(b.acc[:i], func(o instance) bool { return o.tpl == a.tpl }) {
			continue
		}
		for _, e := range a.tpl.intent.Requires {
			if len(b.plan.Reasoning.Entities[e]) > 0 || slices.ContainsFunc(b.plan.Ambiguities, func(x Ambiguity) bool { return x.Entity == e }) {
				continue
			}
			b.plan.Ambiguities = append(b.plan.Ambiguities, Ambiguity{Type: AmbiguityMissingEntity, Entity: e, Blocking: true,
				Message: fmt.Sprintf("%s needs %s, and the question names none", a.tpl.intent.Name, e)})
		}
	}
}

// conflicting reports whether either intent declares the other a conflict.
func conflicting(x, y *rules.Intent) bool {
	return slices.Contains(x.Conflicts, y.Name) || slices.Contains(y.Conflicts, x.Name)
}

// multipleMatches is the ambiguity of a term one source (where: what it
// holds) grounded to several things, with the source's note (how it ranked
// them) and, when the source looked at part of what it holds, that the list
// may be incomplete; blocking when the entity means one thing (matches =
// "one").
func multipleMatches(e *rules.Entity, a sdk.GroundedTerm, where string) Ambiguity {
	msg := fmt.Sprintf("%q matches %d %s in %s", a.Value, len(a.Canonical), termNouns[e.Ground], where)
	if a.Note != "" {
		msg += "; " + a.Note
	}
	if a.Partial && !strings.Contains(a.Note, "incomplete") {
		msg += "; the list may be incomplete"
	}
	return Ambiguity{Type: AmbiguityMultipleMatches, Entity: e.Name, Value: a.Value, Candidates: a.Canonical, Blocking: e.Matches == rules.MatchesOne, Message: msg}
}

// termNouns names the things each term kind grounds to, in the plural.
var termNouns = map[string]string{
	sdk.TermPath: "paths", sdk.TermAuthor: "people", sdk.TermRef: "refs",
	sdk.TermProject: "projects", sdk.TermLabel: "labels", sdk.TermState: "states",
}
