package ask

import (
	"cmp"
	"slices"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// needs lists the sources and agents a run of plan calls, each in the order
// of its first call: the sources of the plan's retrievals, the agents of its
// steps (a writer step asks the analyst and the critic first when the rules
// declare them) and the validator's. A blocking plan calls only the
// clarification agent.
func needs(plan *engine.Plan) (sources, agents []string) {
	if plan.Blocking() != nil {
		return nil, []string{sdk.RoleClarification}
	}
	for _, rp := range plan.Retrieval.Plans {
		sources = appendNew(sources, rp.Sources...)
	}
	if plan.Policy == nil {
		return sources, nil
	}
	declared := func(role engine.Role) bool { _, ok := plan.Policy.Agents[string(role)]; return ok }
	for _, st := range plan.Steps {
		switch st.Role {
		case engine.RoleNone:
			continue
		case engine.RoleAnalyst, engine.RoleCritic, engine.RoleClarification:
		default: // a writer step: analyst, critic, then the writer
			for _, r := range []engine.Role{engine.RoleAnalyst, engine.RoleCritic} {
				if declared(r) {
					agents = appendNew(agents, string(r))
				}
			}
		}
		agents = appendNew(agents, cmp.Or(st.Agent, string(st.Role)))
	}
	if v := plan.Policy.Validator; v != nil {
		agents = appendNew(agents, cmp.Or(v.Agent, string(engine.RoleValidator)))
	}
	return sources, agents
}

// appendNew appends the names not in list yet.
func appendNew(list []string, names ...string) []string {
	for _, n := range names {
		if !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	return list
}
