package render

import (
	"io"
	"sort"
	"strings"

	"github.com/nous-dev/nous/engine"
)

// Text writes a human summary: intents, entities, hypotheses with their
// dependencies, the parallel levels, retrieval plans with their queries, the
// plan validation's findings and refinements, and diagnostics.
func Text(w io.Writer, p *engine.Plan) error {
	out := &errWriter{w: w}
	if p.Query != "" {
		out.printf("query: %s\n", p.Query)
	}
	out.printf("mode:  %s\n", p.Mode)
	if pr := p.Profile; pr != nil {
		d := pr.Dimensions
		out.printf("depth: %s (level %d): %d pass(es), ttl %s, %d records a step\n", pr.Depth.Name, pr.Depth.Level, pr.Depth.MaxPasses, pr.Depth.TTL, pr.Depth.MaxRecords)
		out.printf("       why: %s\n", pr.Reason)
		out.printf("       profile: %d words, %d intents, %d entities (%d constraints), %d hypotheses, %d agent steps, %d retrievals, %d sources\n",
			d.Words, d.Intents, d.Entities, d.Constraints, d.Hypotheses, d.AgentSteps, d.Retrievals, d.Sources)
	}

	out.printf("\nintents:\n")
	if len(p.Reasoning.Intents) == 0 {
		out.printf("  (none)\n")
	}
	for _, in := range p.Reasoning.Intents {
		out.printf("  %-18s %.2f\n", in.Type, in.Confidence)
	}

	if len(p.Reasoning.Entities) > 0 {
		out.printf("\nentities:\n")
		keys := make([]string, 0, len(p.Reasoning.Entities))
		for k := range p.Reasoning.Entities {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out.printf("  %-10s %s\n", k, strings.Join(p.Reasoning.Entities[k], ", "))
		}
	}

	out.printf("\nhypotheses:\n")
	if len(p.Reasoning.Hypotheses) == 0 {
		out.printf("  (none)\n")
	}
	for _, h := range p.Reasoning.Hypotheses {
		out.printf("  %-4s %s", h.ID, h.Description)
		var notes []string
		if len(h.Dependencies) > 0 {
			notes = append(notes, "after "+strings.Join(h.Dependencies, ", "))
		}
		switch {
		case h.Agent != "":
			notes = append(notes, "agent "+h.Agent)
		case h.Action == engine.ActionAgent && h.Role != engine.RoleNone:
			notes = append(notes, "agent "+string(h.Role))
		case h.Action != engine.ActionNone:
			notes = append(notes, string(h.Action))
		}
		notes = append(notes, h.Intent+"."+h.Name)
		out.printf("  [%s]\n", strings.Join(notes, "; "))
	}

	if levels, err := Levels(p); err == nil && len(levels) > 0 {
		out.printf("\nlevels (steps of a level can run in parallel):\n")
		for i, level := range levels {
			out.printf("  %d: %s\n", i+1, strings.Join(level, " "))
		}
	}

	out.printf("\nretrieval plans:\n")
	if len(p.Retrieval.Plans) == 0 {
		out.printf("  (none)\n")
	}
	for i, pl := range p.Retrieval.Plans {
		out.printf("  %-6s priority %-3d %-10s %s", pl.ID, pl.Priority, strings.Join(pl.Sources, ","), pl.Description)
		if pl.Hypothesis != "" {
			out.printf("  [step %s]", pl.Hypothesis)
		}
		out.printf("\n")
		if i < len(p.Retrieval.Queries) {
			out.printf("         query: %s\n", p.Retrieval.Queries[i].QueryString)
		}
	}

	if len(p.Ambiguities) > 0 {
		out.printf("\nambiguities:\n")
		for _, a := range p.Ambiguities {
			ask := "said in the answer"
			if a.Blocking {
				ask = "asked back"
			}
			out.printf("  %s (%s): %s", a.Type, ask, a.Message)
			if len(a.Candidates) > 0 {
				out.printf(" [%s]", strings.Join(a.Candidates, "; "))
			}
			out.printf("\n")
		}
	}

	if v := p.Validation; v != nil {
		out.printf("\nplan validation:\n")
		for _, f := range v.Findings {
			out.printf("  %s %s: %s\n", f.Severity, f.Code, f.Message)
		}
		for _, r := range v.Refinements {
			out.printf("  refined: %s %s", r.Op, r.Target)
			if r.Op == engine.OpReplace {
				out.printf(" %s → %s", r.From, r.To)
			}
			out.printf(": %s\n", r.Justification)
		}
	}

	if len(p.Diagnostics) > 0 {
		out.printf("\ndiagnostics:\n")
		for _, d := range p.Diagnostics {
			out.printf("  %s %s: %s\n", d.Severity, d.Code, d.Message)
		}
	}
	return out.err
}
