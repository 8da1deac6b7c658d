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
	return diagram(w, p, dot)
}

var dot = dialect{
	header:     "digraph plan {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n",
	cluster:    "  subgraph cluster_%d {\n    label=%s;\n",
	node:       "    %s [label=%s];\n",
	clusterEnd: "  }\n",
	edge:       "  %s -> %s;\n",
	planNode:   "  %s [shape=cylinder, label=%s];\n",
	planEdge:   "  %s -> %s [style=dashed];\n",
	footer:     "}\n",
	sep:        "\n",
	quote:      dotQuote,
}

var dotEscapes = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// dotQuote returns s as a DOT string literal, newlines as \n.
func dotQuote(s string) string { return `"` + dotEscapes.Replace(s) + `"` }
