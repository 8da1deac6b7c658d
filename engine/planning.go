package engine

import (
	"context"
	"fmt"

	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/rules/cond"
)

// Plan builds the plan for req. It fails only on an invalid request or a
// cancelled context; everything else worth knowing (skipped or unknown
// intents, broken cycles, failing conditions) is a diagnostic in the plan.
// The same request always gives the same plan.
//
// Slices in the plan may share memory with req and with the rules: replace
// them rather than writing into them.
func (p *Planner) Plan(ctx context.Context, req Request) (*Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	b := builder{p: p, plan: &Plan{Query: req.Query, Diagnostics: []Diagnostic{}}}
	b.acc = b.accBuf[:0]

	text := cond.NewText(req.Query) // folded once for entities and conditions
	entities := req.Entities
	if entities == nil {
		entities = p.extractEntities(text)
	}
	b.plan.Reasoning.Entities = entities
	b.env = cond.NewQueryEnv(text, entities, req.Mode)
	b.env.Sources = p.sources

	intents := req.Intents
	if len(intents) == 0 {
		intents = b.detect()
	}
	b.accept(intents)
	b.plan.Mode = b.chooseMode(req.Mode)
	b.plan.Policy = p.Policy(b.plan.Mode)
	b.env.Mode = b.plan.Mode
	b.hypotheses()
	b.retrievals()
	b.ambiguities()
	b.profile()
	return b.plan, nil
}

// builder holds the state of one Plan call.
type builder struct {
	p    *Planner
	plan *Plan
	env  *cond.QueryEnv

	acc    []instance // accepted intents
	accBuf [8]instance
	steps  int // hypotheses over all accepted intents
}

// instance is an accepted intent and where its hypotheses start.
type instance struct {
	Intent
	tpl  *template
	base int
}

func (b *builder) diag(sev Severity, code, format string, args ...any) {
	b.plan.Diagnostics = append(b.plan.Diagnostics, Diagnostic{Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)})
}

// holds evaluates a query condition; a failing condition is an error
// diagnostic naming the rule (attribute attr of block kind "name", inside
// intent "in" when set) and counts as false.
func (b *builder) holds(c *cond.Condition, attr, kind, name, in string) bool {
	return b.holdsIn(b.env, c, attr, kind, name, in)
}

// holdsIn is holds against another environment than the question's.
func (b *builder) holdsIn(env any, c *cond.Condition, attr, kind, name, in string) bool {
	ok, err := c.Eval(env)
	if err != nil {
		where := fmt.Sprintf("%s of %s %q", attr, kind, name)
		if in != "" {
			where += fmt.Sprintf(" in intent %q", in)
		}
		b.diag(SeverityError, "condition_error", "%s: %v; treated as false", where, err)
		return false
	}
	return ok
}

// detect runs the detect rules in declaration order. A query nothing
// matches is planned with the fallback template.
func (b *builder) detect() []Intent {
	if b.env.Query == "" {
		b.diag(SeverityError, "no_intents", "the request has neither intents nor a query to detect them from")
		return nil
	}
	var out []Intent
	for _, t := range b.p.detectors {
		if b.holds(t.intent.Detect.When, "detect", "intent", t.intent.Name, "") {
			out = append(out, Intent{Type: t.intent.Name, Confidence: t.intent.Detect.Confidence})
		}
	}
	if len(out) == 0 {
		if b.p.fallback == nil {
			b.diag(SeverityError, "no_intent_detected", "no detect rule matched the query and the rules define no fallback template")
			return nil
		}
		name := b.p.fallback.intent.Name
		b.diag(SeverityWarning, "no_intent_detected", "no detect rule matched the query; planned with the %q template", name)
		out = append(out, Intent{Type: name, Confidence: max(b.p.rules.Settings.MinConfidence, 0)})
	}
	return out
}

// accept drops intents below min_confidence and resolves templates, falling
// back for unknown types.
func (b *builder) accept(intents []Intent) {
	minConf := b.p.rules.Settings.MinConfidence
	for _, in := range intents {
		if in.Confidence < minConf {
			b.diag(SeverityInfo, "low_confidence", "intent %q skipped: confidence %.2f is below min_confidence %.2f", in.Type, in.Confidence, minConf)
			continue
		}
		t := b.p.templates[in.Type]
		if t == nil {
			if b.p.fallback == nil {
				b.diag(SeverityError, "unknown_intent", "intent type %q has no template and the rules define no fallback; skipped", in.Type)
				continue
			}
			t = b.p.fallback
			b.diag(SeverityWarning, "unknown_intent", "intent type %q has no template; planned with the %q template", in.Type, t.intent.Name)
		}
		b.acc = append(b.acc, instance{Intent: in, tpl: t, base: b.steps})
		b.steps += len(t.intent.Hypotheses)
	}
	accepted := make([]Intent, len(b.acc))
	types := make([]string, len(b.acc))
	for i, a := range b.acc {
		accepted[i], types[i] = a.Intent, a.Type
	}
	b.plan.Reasoning.Intents = accepted
	b.env.IntentTypes = types
	if len(b.acc) == 0 {
		b.diag(SeverityWarning, "empty_plan", "no intent was accepted, so the plan is empty")
	}
}

// chooseMode returns the requested mode, else the first mode whose when
// condition holds, else the default mode.
func (b *builder) chooseMode(requested string) string {
	if requested != "" {
		if err := b.p.CheckMode(requested); err != nil {
			b.diag(SeverityError, "unknown_mode", "%v", err)
		}
		return requested
	}
	for _, m := range b.p.rules.Modes {
		if m.When != nil && b.holds(m.When, "when", "mode", m.Name, "") {
			return m.Name
		}
	}
	return b.p.rules.Settings.DefaultMode
}

// crossEdges returns the edges added by dependency rules whose condition
// holds, between every instance of the from intent and every other instance
// of the to intent.
func (b *builder) crossEdges() []graph.Edge {
	var edges []graph.Edge
	for _, d := range b.p.crossDeps {
		if d.fromStep < 0 || d.toStep < 0 || !b.holds(d.rule.When, "when", "dependency", d.rule.Name, "") {
			continue
		}
		for i, from := range b.acc {
			if from.Type != d.rule.FromIntent {
				continue
			}
			for j, to := range b.acc {
				if i != j && to.Type == d.rule.ToIntent {
					edges = append(edges, graph.Edge{From: from.base + d.fromStep, To: to.base + d.toStep})
				}
			}
		}
	}
	return edges
}
