package lint

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// unused reports sources no retrieve uses, agents the executor never
// calls, entities no retrieve filter, default or refinement names, and
// prompts for roles no hypothesis can take.
func unused(rs *rules.Ruleset) hcl.Diagnostics {
	sources, agents, entities := map[string]bool{}, calledAgents(rs), map[string]bool{}
	for _, in := range rs.Intents {
		for _, e := range in.Requires {
			entities[e] = true
		}
		for _, r := range in.Retrievals {
			sources[r.Source] = true
			for _, f := range r.Filters {
				entities[f] = true
			}
			for f := range r.Defaults {
				entities[f] = true
			}
		}
	}
	for _, c := range rs.Checks {
		if c.Refine == nil {
			continue
		}
		for _, f := range c.Refine.DropFilters {
			entities[f] = true
		}
		for f := range c.Refine.SetFilters {
			entities[f] = true
		}
		if c.Refine.Nearest != "" {
			entities[datesEntity] = true // nearest looks around the dates' period
		}
	}
	var diags hcl.Diagnostics
	for _, s := range rs.Sources {
		if !sources[s.Name] {
			diags = append(diags, rules.Warning(rules.CheckUnused, s.Range, fmt.Sprintf("Unused source %q", s.Name),
				"No retrieve block uses this source, so its plugin is never called."))
		}
	}
	for _, a := range rs.Agents {
		if !agents[a.Name] {
			diags = append(diags, rules.Warning(rules.CheckUnused, a.Range, fmt.Sprintf("Unused agent %q", a.Name),
				"No hypothesis names this agent or takes the role it is named after, so it is never invoked."))
		}
	}
	for _, e := range rs.Entities {
		if !entities[e.Name] {
			diags = append(diags, rules.Warning(rules.CheckUnused, e.Range, fmt.Sprintf("Unused entity %q", e.Name),
				"No retrieve filters on this entity and no intent requires it, so the values it extracts are never used."))
		}
	}
	for _, p := range rs.Prompts {
		if p.Role == rules.RoleValidator {
			if rs.Validator == nil {
				diags = append(diags, rules.Warning(rules.CheckUnused, p.Range, `Unused prompt "validator"`,
					"No validator block calls a validator agent, so this prompt is never rendered."))
			}
			continue
		}
		if !slices.Contains(rules.Roles, p.Role) {
			diags = append(diags, rules.Warning(rules.CheckUnused, p.Range, fmt.Sprintf("Unused prompt %q", p.Role),
				fmt.Sprintf("Prompts are looked up by agent role, and hypotheses take only the roles %q.", rules.Roles)))
		}
	}
	return diags
}

// calledAgents names the agents the executor calls: a step's own agent, or
// for a step with a role but no agent the agent named after the role;
// around every writer step the agents named analyst and critic; the
// agent named clarification when the rules can ask a question back; and
// the validator block's agent.
func calledAgents(rs *rules.Ruleset) map[string]bool {
	called := map[string]bool{"clarification": rs.AsksBack()}
	if rs.Validator != nil {
		called[rs.Validator.Agent] = true
	}
	for _, in := range rs.Intents {
		for _, h := range in.Hypotheses {
			role := h.Role
			if role == "" && (h.Action == "agent" || h.Agent != "") {
				role = "writer" // the executor's default role of an agent step
			}
			switch {
			case h.Agent != "":
				called[h.Agent] = true
			case role != "":
				called[role] = true
			}
			if role == "writer" {
				called["analyst"], called["critic"] = true, true
			}
		}
	}
	return called
}
