package render

import (
	"io"
	"strings"

	"github.com/nous-dev/nous/engine"
)

// Mermaid writes the plan as a Mermaid flowchart: one subgraph per intent,
// dependency edges, and retrieval plans as database nodes linked by dotted
// edges from the step that runs them.
func Mermaid(w io.Writer, p *engine.Plan) error {
	return diagram(w, p, mermaid)
}

var mermaid = dialect{
	header:     "flowchart LR\n",
	cluster:    "  subgraph intent%d[%s]\n",
	node:       "    %s[%s]\n",
	clusterEnd: "  end\n",
	edge:       "  %s --> %s\n",
	planNode:   "  %s[(%s)]\n",
	planEdge:   "  %s -.-> %s\n",
	sep:        ": ",
	quote:      mermaidQuote,
}

var mermaidEscapes = strings.NewReplacer(`"`, "#quot;", "\n", " ", "<", "#lt;", ">", "#gt;")

// mermaidQuote returns s as a quoted Mermaid label; quotes and characters
// Mermaid would parse become entity codes.
func mermaidQuote(s string) string { return `"` + mermaidEscapes.Replace(s) + `"` }
