package engine

import (
	"fmt"
	"slices"

	"github.com/nous-dev/nous/rules/cond"
)

// profile computes the plan's task profile and chooses its depth; a depth
// condition that fails to evaluate is an error diagnostic.
func (b *builder) profile() {
	if err := profilePlan(b.plan, b.env); err != nil {
		b.diag(SeverityError, "condition_error", "%v; treated as false", err)
	}
}

// reprofile counts plan's task profile again and re-chooses its depth, as
// ValidatePlan does once it removed what no source serves: a retrieval
// that will not run is no expected tool usage. A depth that changes says
// so in its reason.
func reprofile(plan *Plan) {
	before := plan.Profile
	if before == nil || plan.Policy == nil || plan.Policy.Depths == nil {
		return
	}
	env := cond.NewQueryEnv(cond.NewText(plan.Query), plan.Reasoning.Entities, plan.Mode)
	env.IntentTypes = make([]string, len(plan.Reasoning.Intents))
	for i, in := range plan.Reasoning.Intents {
		env.IntentTypes[i] = in.Type
	}
	_ = profilePlan(plan, env) // the planner reported a condition that fails
	if pr := plan.Profile; pr.Depth.Level != before.Depth.Level {
		pr.Reason += fmt.Sprintf(" (counted again after plan validation; depth %q before)", before.Depth.Name)
	}
}

// profilePlan sets plan.Profile: its task profile and the depth the
// query's env chooses for it. A condition that fails to evaluate counts as
// false and is returned.
func profilePlan(plan *Plan, q *cond.QueryEnv) error {
	ds := plan.Policy.Depths
	if ds == nil {
		return nil
	}
	// One allocation holds the profile and the environment its conditions
	// read (which escapes to the heap through Eval anyway).
	x := &struct {
		profile Profile
		env     cond.ProfileEnv
		dims    cond.Profile
		pass    cond.Pass
	}{}
	x.dims = cond.Profile(Measure(plan))
	x.env = cond.ProfileEnv{Query: q.Query, Mode: q.Mode, IntentTypes: q.IntentTypes, Entities: q.Entities,
		Profile: &x.dims, Pass: &x.pass}
	at, reason, err := ds.Choose(&x.env)
	x.profile = Profile{Dimensions: Dimensions(x.dims), Depth: ds.Levels[at].Depth, Reason: reason}
	plan.Profile = &x.profile
	return err
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
