package render

import (
	"io"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine"
)

// Mermaid writes the plan as a Mermaid flowchart: one subgraph per intent,
// dependency edges, and retrieval plans as database nodes linked by dotted
// edges from the step that runs them.
func Mermaid(w io.Writer, p *engine.Plan) error {
	out := &errWriter{w: w}
	out.printf("flowchart LR\n")
	for i, group := range groupByIntent(p) {
		out.printf("  subgraph intent%d[%s]\n", i, mermaidQuote(group.label))
		for _, h := range group.hyps {
			out.printf("    %s[%s]\n", h.ID, mermaidQuote(h.ID+": "+h.Description))
		}
		out.printf("  end\n")
	}
	for _, h := range p.Reasoning.Hypotheses {
		for _, d := range h.Dependencies {
			out.printf("  %s --> %s\n", d, h.ID)
		}
	}
	for _, pl := range p.Retrieval.Plans {
		label := pl.ID + " · " + strings.Join(pl.Sources, ",") + " · priority " + itoa(pl.Priority) + ": " + queryOf(p, pl.ID)
		out.printf("  %s[(%s)]\n", pl.ID, mermaidQuote(label))
		if pl.Hypothesis != "" {
			out.printf("  %s -.-> %s\n", pl.Hypothesis, pl.ID)
		}
	}
	return out.err
}

// mermaidQuote returns s as a quoted Mermaid label; quotes and characters
// Mermaid would parse become entity codes.
func mermaidQuote(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "\n", " ", "<", "#lt;", ">", "#gt;")
	return `"` + r.Replace(s) + `"`
}

// intentGroup is the hypotheses of one accepted intent.
type intentGroup struct {
	label string
	hyps  []engine.Hypothesis
}

// groupByIntent splits the hypotheses by the intent they were planned for,
// in order.
func groupByIntent(p *engine.Plan) []intentGroup {
	var groups []intentGroup
	last := -1
	for _, h := range p.Reasoning.Hypotheses {
		if len(groups) == 0 || h.IntentIndex != last {
			label := h.Intent
			if h.IntentIndex < len(p.Reasoning.Intents) {
				label += " (" + strconv.FormatFloat(p.Reasoning.Intents[h.IntentIndex].Confidence, 'f', 2, 64) + ")"
			}
			groups = append(groups, intentGroup{label: label})
			last = h.IntentIndex
		}
		groups[len(groups)-1].hyps = append(groups[len(groups)-1].hyps, h)
	}
	return groups
}

func itoa(n int) string { return strconv.Itoa(n) }

// queryOf returns the query string of the plan with the given ID.
func queryOf(p *engine.Plan, planID string) string {
	for _, q := range p.Retrieval.Queries {
		if q.ID == planID+"_query" {
			return q.QueryString
		}
	}
	return ""
}
