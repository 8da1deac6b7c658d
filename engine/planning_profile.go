package engine

import (
	"fmt"
	"slices"

	"github.com/nous-dev/nous/rules/cond"
)

// profile computes the plan's task profile and chooses its depth; a depth
// condition that fails to evaluate is an error diagnostic.
func (b *builder) profile() {
	ds := b.plan.Policy.Depths
	if ds == nil {
		return
	}
	// One allocation holds the profile and the environment its conditions
	// read (which escapes to the heap through Eval anyway).
	x := &struct {
		profile Profile
		env     cond.ProfileEnv
		dims    cond.Profile
		pass    cond.Pass
	}{}
	x.dims = cond.Profile(Measure(b.plan))
	x.env = cond.ProfileEnv{Query: b.env.Query, Mode: b.env.Mode, IntentTypes: b.env.IntentTypes, Entities: b.env.Entities,
		Profile: &x.dims, Pass: &x.pass}
	at, reason, err := ds.Choose(&x.env)
	if err != nil {
		b.diag(SeverityError, "condition_error", "%v; treated as false", err)
	}
	x.profile = Profile{Dimensions: Dimensions(x.dims), Depth: ds.Levels[at].Depth, Reason: reason}
	b.plan.Profile = &x.profile
}

// Measure counts the task profile of a plan.
func Measure(p *Plan) Dimensions {
	d := Dimensions{Words: words(p.Query), Intents: len(p.Reasoning.Intents), Hypotheses: len(p.Reasoning.Hypotheses),
		Retrievals: len(p.Retrieval.Plans)}
	for _, values := range p.Reasoning.Entities {
		if len(values) > 0 {
			d.Constraints++
			d.Entities += len(values)
		}
	}
	for _, st := range p.Steps {
		if st.Role != RoleNone {
			d.AgentSteps++
		}
	}
	var seen [8]string // sources are few: a linear set on the stack
	known := seen[:0]
	for _, pl := range p.Retrieval.Plans {
		for _, s := range pl.Sources {
			if !slices.Contains(known, s) {
				known = append(known, s)
			}
		}
	}
	d.Sources = len(known)
	return d
}

// Choose returns the index of the depth level for the task profile in env:
// the highest level whose when holds, else the lowest (the floor), and
// why. A condition that fails to evaluate counts as false and is returned
// as the error.
func (ds *Depths) Choose(env *cond.ProfileEnv) (int, string, error) {
	var err error
	for i := len(ds.Levels) - 1; i > 0; i-- {
		l := &ds.Levels[i]
		if l.When == nil {
			continue
		}
		ok, e := l.When.Eval(env)
		if e != nil {
			if err == nil {
				err = fmt.Errorf("when of depth %q: %w", l.Name, e)
			}
			continue
		}
		if ok {
			return i, l.why, err
		}
	}
	return 0, floorWhy, err
}

// floorWhy is why the floor is chosen.
const floorWhy = "the floor: no higher level's when holds"

// words counts the whitespace-separated words of s without splitting it.
func words(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		space := s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}
