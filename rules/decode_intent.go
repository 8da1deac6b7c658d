package rules

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
)

// Roles are the agent roles a hypothesis may name.
var Roles = []string{"analyst", "critic", "writer", "clarification"}

// Actions are the hypothesis actions the executor knows; lint warns on others.
var Actions = []string{"retrieve", "filter", "rank", "aggregate", "stats", "agent", "effect"}

func (d *decoder) decodeIntent(b *hcl.Block) {
	in := &Intent{Name: b.Labels[0], Pattern: PatternChain, Range: b.DefRange}
	c := d.content(b.Body, intentSchema)
	var p string
	if d.oneOf(c.Attributes, "pattern", &p, string(PatternChain), string(PatternParallel), string(PatternFanIn), string(PatternExplicit)) {
		in.Pattern = Pattern(p)
	}
	d.names(c.Attributes, "requires", "entity", &in.Requires)
	d.names(c.Attributes, "conflicts", "intent", &in.Conflicts)
	index := map[string]int{}
	retrievals := map[string]hcl.Range{}
	var dependsOn [][]hcl.Range
	for _, blk := range c.Blocks {
		switch blk.Type {
		case "detect":
			if in.Detect != nil {
				d.add(Error(CheckDuplicateName, blk.DefRange, "Duplicate detect block",
					fmt.Sprintf("Intent %q already has a detect block at %s.", in.Name, in.Detect.Range)))
				continue
			}
			in.Detect = d.decodeDetect(blk)
		case "hypothesis":
			h, ranges := d.decodeHypothesis(blk)
			if first, dup := index[h.Name]; dup {
				d.add(Error(CheckDuplicateName, blk.DefRange, fmt.Sprintf("Duplicate hypothesis %q", h.Name),
					fmt.Sprintf("Intent %q already has hypothesis %q at %s.", in.Name, h.Name, in.Hypotheses[first].Range)))
				continue
			}
			index[h.Name] = len(in.Hypotheses)
			in.Hypotheses = append(in.Hypotheses, h)
			dependsOn = append(dependsOn, ranges)
		case "retrieve":
			r := d.decodeRetrieval(blk)
			if first, dup := retrievals[r.Name]; dup {
				d.add(Error(CheckDuplicateName, blk.DefRange, fmt.Sprintf("Duplicate retrieve %q", r.Name),
					fmt.Sprintf("Intent %q already has retrieve %q at %s.", in.Name, r.Name, first)))
				continue
			}
			retrievals[r.Name] = r.Range
			in.Retrievals = append(in.Retrievals, r)
		}
	}
	in.Edges = d.intentEdges(in, index, dependsOn)
	d.bindRetrievals(in, index)
	if d.define("intent", in.Name, b.DefRange) {
		d.rs.Intents = append(d.rs.Intents, in)
	}
}

func (d *decoder) decodeDetect(b *hcl.Block) *Detect {
	det := &Detect{Confidence: 1, Range: b.DefRange}
	c := d.content(b.Body, detectSchema)
	d.condition(c.Attributes, "when", cond.QueryEnv{}, &det.When)
	if d.float(c.Attributes, "confidence", &det.Confidence) {
		d.fraction(c.Attributes, "confidence", det.Confidence)
	}
	return det
}

// decodeHypothesis returns the hypothesis and the range of each depends_on element.
func (d *decoder) decodeHypothesis(b *hcl.Block) (*Hypothesis, []hcl.Range) {
	h := &Hypothesis{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, hypothesisSchema)
	d.str(c.Attributes, "description", &h.Description)
	d.str(c.Attributes, "action", &h.Action)
	if d.str(c.Attributes, "agent", &h.Agent) {
		d.refs = append(d.refs, reference{kind: "agent", name: h.Agent, where: c.Attributes["agent"].Expr.Range(), attr: "agent"})
		if h.Action == "" {
			h.Action = "agent"
		}
		if slices.Contains(Roles, h.Agent) {
			h.Role = h.Agent
		}
	}
	d.oneOf(c.Attributes, "role", &h.Role, Roles...)
	var ranges []hcl.Range
	if d.strs(c.Attributes, "depends_on", &h.DependsOn) {
		ranges = elementRanges(c.Attributes["depends_on"], len(h.DependsOn))
	}
	return h, ranges
}

// names decodes a list attribute of names of kind (entity, intent), each
// resolved once every file is read.
func (d *decoder) names(attrs hcl.Attributes, name, kind string, dst *[]string) {
	if !d.strs(attrs, name, dst) {
		return
	}
	for i, at := range elementRanges(attrs[name], len(*dst)) {
		d.refs = append(d.refs, reference{kind: kind, name: (*dst)[i], where: at, attr: name})
	}
}

// elementRanges returns the range of each element of a list attribute, or the
// whole expression's range when the elements cannot be told apart.
func elementRanges(attr *hcl.Attribute, n int) []hcl.Range {
	ranges := make([]hcl.Range, n)
	exprs, diags := hcl.ExprList(attr.Expr)
	for i := range ranges {
		ranges[i] = attr.Expr.Range()
		if !diags.HasErrors() && len(exprs) == n {
			ranges[i] = exprs[i].Range()
		}
	}
	return ranges
}

// intentEdges resolves the pattern and depends_on into edges, reporting
// depends_on names that are not hypotheses of the intent.
func (d *decoder) intentEdges(in *Intent, index map[string]int, dependsOn [][]hcl.Range) []Edge {
	var edges []Edge
	last := len(in.Hypotheses) - 1
	for to, h := range in.Hypotheses {
		seen := map[int]bool{}
		addEdge := func(from int, at hcl.Range) {
			if !seen[from] {
				seen[from] = true
				edges = append(edges, Edge{From: from, To: to, Range: at})
			}
		}
		switch in.Pattern {
		case PatternChain:
			if to > 0 {
				addEdge(to-1, h.Range)
			}
		case PatternFanIn:
			if to == last {
				for from := range last {
					addEdge(from, h.Range)
				}
			}
		}
		for i, name := range h.DependsOn {
			from, ok := index[name]
			if !ok {
				d.add(Error(CheckUnknownReference, dependsOn[to][i], fmt.Sprintf("Unknown hypothesis %q", name),
					fmt.Sprintf("depends_on names hypotheses of intent %q; it has %s.", in.Name, nameList(in.Hypotheses))))
				continue
			}
			addEdge(from, dependsOn[to][i])
		}
	}
	return edges
}

// nameList quotes the hypotheses' names for messages.
func nameList(hs []*Hypothesis) string {
	if len(hs) == 0 {
		return "none"
	}
	quoted := make([]string, len(hs))
	for i, h := range hs {
		quoted[i] = strconv.Quote(h.Name)
	}
	return strings.Join(quoted, ", ")
}

func (d *decoder) decodeRetrieval(b *hcl.Block) *Retrieval {
	r := &Retrieval{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, retrieveSchema)
	d.str(c.Attributes, "description", &r.Description)
	if d.str(c.Attributes, "source", &r.Source) {
		d.refs = append(d.refs, reference{kind: "source", name: r.Source, where: c.Attributes["source"].Expr.Range(), attr: "source"})
	}
	d.recordKind(c.Attributes, &r.Kind)
	d.str(c.Attributes, "hypothesis", &r.Hypothesis)
	if d.int(c.Attributes, "priority", &r.Priority) {
		d.atLeast(c.Attributes, "priority", r.Priority, 0)
	} else if _, set := c.Attributes["priority"]; !set {
		d.unsetPrio = append(d.unsetPrio, r)
	}
	d.strs(c.Attributes, "filters", &r.Filters)
	d.stringLists(c.Attributes, "defaults", &r.Defaults)
	if d.stringLists(c.Attributes, "fixed", &r.Fixed) {
		d.checkFixed(c.Attributes["fixed"], r)
	}
	if d.int(c.Attributes, "limit", &r.Limit) {
		d.atLeast(c.Attributes, "limit", r.Limit, 0)
	}
	required := true
	d.flag(c.Attributes, "required", &required)
	r.Optional = !required
	d.flag(c.Attributes, "rank", &r.Rank)
	d.strs(c.Attributes, "rank_ignore", &r.RankIgnore)
	if d.numbers(c.Attributes, "rank_weights", &r.RankWeights) {
		d.checkWeights(c.Attributes["rank_weights"], r.RankWeights)
	}
	d.condition(c.Attributes, "when", cond.QueryEnv{}, &r.When)
	r.hypothesisAt = b.DefRange
	if a, ok := c.Attributes["hypothesis"]; ok {
		r.hypothesisAt = a.Expr.Range()
	}
	return r
}

// checkFixed refuses a fixed filter without values, or one the block also
// takes from the question (filters) or defaults: a fixed value is never
// replaced, so either would be a contradiction.
func (d *decoder) checkFixed(attr *hcl.Attribute, r *Retrieval) {
	for _, key := range slices.Sorted(maps.Keys(r.Fixed)) {
		switch {
		case len(r.Fixed[key]) == 0:
			d.add(Error(CheckInvalidValue, attr.Expr.Range(), fmt.Sprintf("Fixed filter %q has no values", key),
				"A fixed filter needs at least one value: the retrieval always uses them."))
		case slices.Contains(r.Filters, key):
			d.add(Error(CheckInvalidValue, attr.Expr.Range(), fmt.Sprintf("Filter %q is both fixed and in filters", key),
				"filters takes an entity's values from the question, fixed never does; name it in one of them."))
		case hasKey(r.Defaults, key):
			d.add(Error(CheckInvalidValue, attr.Expr.Range(), fmt.Sprintf("Filter %q is both fixed and defaulted", key),
				"defaults apply when the question gives no value, fixed values always; name it in one of them."))
		}
	}
}

// checkWeights refuses a rank weight outside [0, 1] or a malformed glob.
func (d *decoder) checkWeights(attr *hcl.Attribute, weights map[string]float64) {
	for _, glob := range slices.Sorted(maps.Keys(weights)) {
		if w := weights[glob]; w < 0 || w > 1 {
			d.add(Error(CheckOutOfRange, attr.Expr.Range(), fmt.Sprintf("Rank weight of %q out of range", glob),
				fmt.Sprintf("A rank weight scales the relevance of the files %q matches: between 0 and 1, got %g.", glob, w)))
		}
		if _, err := path.Match(glob, ""); err != nil {
			d.add(Error(CheckInvalidValue, attr.Expr.Range(), fmt.Sprintf("Invalid glob %q in rank_weights", glob),
				"A rank weight's key is a file glob such as \"CHANGELOG*\" (a name) or \"Documentation/RelNotes/*\" (a path)."))
		}
	}
}

func hasKey(m map[string][]string, key string) bool {
	_, ok := m[key]
	return ok
}

// bindRetrievals checks each retrieval's hypothesis, defaulting it to the
// intent's first hypothesis whose action is "retrieve".
func (d *decoder) bindRetrievals(in *Intent, index map[string]int) {
	firstRetrieve := ""
	for _, h := range in.Hypotheses {
		if h.Action == "retrieve" {
			firstRetrieve = h.Name
			break
		}
	}
	for _, r := range in.Retrievals {
		if r.Hypothesis == "" {
			r.Hypothesis = firstRetrieve
			continue
		}
		if _, ok := index[r.Hypothesis]; !ok {
			d.add(Error(CheckUnknownReference, r.hypothesisAt, fmt.Sprintf("Unknown hypothesis %q", r.Hypothesis),
				fmt.Sprintf("hypothesis names a hypothesis of intent %q; it has %s.", in.Name, nameList(in.Hypotheses))))
		}
	}
}
