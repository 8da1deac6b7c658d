package render

import (
	"io"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine"
)

// dialect is how a diagram language writes the parts of a plan. The printf
// formats take IDs and labels already quoted by quote.
type dialect struct {
	header     string
	cluster    string // intent index, label
	node       string // hypothesis ID, label
	clusterEnd string
	edge       string // from, to
	planNode   string // plan ID, label
	planEdge   string // step ID, plan ID
	footer     string
	sep        string // between a node's ID and its text in a label
	quote      func(string) string
}

// diagram writes p in dialect d: one cluster per intent with its
// hypotheses, the dependency edges, then each retrieval plan linked from the
// step that runs it.
func diagram(w io.Writer, p *engine.Plan, d dialect) error {
	out := &errWriter{w: w}
	out.printf("%s", d.header)
	for i, group := range groupByIntent(p) {
		out.printf(d.cluster, i, d.quote(group.label))
		for _, h := range group.hyps {
			out.printf(d.node, h.ID, d.quote(h.ID+d.sep+h.Description))
		}
		out.printf("%s", d.clusterEnd)
	}
	for _, h := range p.Reasoning.Hypotheses {
		for _, dep := range h.Dependencies {
			out.printf(d.edge, dep, h.ID)
		}
	}
	for _, pl := range p.Retrieval.Plans {
		label := pl.ID + " · " + strings.Join(pl.Sources, ",") + " · priority " + strconv.Itoa(pl.Priority) + d.sep + queryOf(p, pl.ID)
		out.printf(d.planNode, pl.ID, d.quote(label))
		if pl.Hypothesis != "" {
			out.printf(d.planEdge, pl.Hypothesis, pl.ID)
		}
	}
	out.printf("%s", d.footer)
	return out.err
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

// queryOf returns the query string of the plan with the given ID.
func queryOf(p *engine.Plan, planID string) string {
	for _, q := range p.Retrieval.Queries {
		if q.ID == planID+"_query" {
			return q.QueryString
		}
	}
	return ""
}
