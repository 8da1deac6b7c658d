package render

import (
	"io"
	"strings"

	"github.com/nous-dev/nous/engine"
)

// DOT writes the plan as a Graphviz digraph: one cluster per intent with
// its hypotheses, dependency edges, and each retrieval plan as a cylinder
// linked by a dashed edge from the step that runs it.
func DOT(w io.Writer, p *engine.Plan) error {
	out := &errWriter{w: w}
	out.printf("digraph plan {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n")
	for i, group := range groupByIntent(p) {
		out.printf("  subgraph cluster_%d {\n    label=%s;\n", i, dotQuote(group.label))
		for _, h := range group.hyps {
			out.printf("    %s [label=%s];\n", h.ID, dotQuote(h.ID+"\n"+h.Description))
		}
		out.printf("  }\n")
	}
	for _, h := range p.Reasoning.Hypotheses {
		for _, d := range h.Dependencies {
			out.printf("  %s -> %s;\n", d, h.ID)
		}
	}
	for _, pl := range p.Retrieval.Plans {
		label := pl.ID + " · " + strings.Join(pl.Sources, ",") + " · priority " + itoa(pl.Priority) + "\n" + queryOf(p, pl.ID)
		out.printf("  %s [shape=cylinder, label=%s];\n", pl.ID, dotQuote(label))
		if pl.Hypothesis != "" {
			out.printf("  %s -> %s [style=dashed];\n", pl.Hypothesis, pl.ID)
		}
	}
	out.printf("}\n")
	return out.err
}

// dotQuote returns s as a DOT string literal, newlines as \n.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
