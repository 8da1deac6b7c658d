package engine

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/rules"
)

// Planner turns requests into plans with one compiled ruleset. Everything
// that depends only on the rules (dependency lists of each template, which
// step runs each retrieval, identifier strings) is worked out once by
// NewPlanner. A Planner is immutable and safe for concurrent use.
type Planner struct {
	rules     *rules.Ruleset
	templates map[string]*template
	detectors []*template // intents with a detect block, in declaration order
	fallback  *template   // nil when the rules define no fallback template
	crossDeps []crossDep
	policies  map[string]*Policy // by mode name
	undefined *Policy            // for a mode the rules do not define
	sources   map[string]string  // configured sources, name → plugin (conditions' sources)

	// Precomputed identifiers, so small plans format no numbers.
	stepIDs, planIDs, queryIDs []string
}

// template is an intent template with its dependencies resolved.
type template struct {
	intent     *rules.Intent
	steps      []Step  // per hypothesis: what it runs (no ID, no plans)
	deps       [][]int // per hypothesis: hypotheses it depends on, ascending
	cyclic     bool    // its own dependencies form a cycle
	retrievals []retrievalTemplate
}

// retrievalTemplate is a retrieval with its step and defaults resolved.
type retrievalTemplate struct {
	rule        *rules.Retrieval
	description string     // the block's, else its name
	step        int        // hypothesis (within the template) that runs it, -1 for none
	defaults    [][]string // per filter key, the default values or nil
	fixed       []Filter   // the fixed filters, by key
}

// crossDep is a dependency rule resolved to hypothesis positions.
type crossDep struct {
	rule     *rules.Dependency
	fromStep int // within the from intent's template; -1 when unresolved
	toStep   int
}

// precomputedIDs is how many step, plan and query IDs are formatted up front.
const precomputedIDs = 64

// NewPlanner compiles rs for planning.
func NewPlanner(rs *rules.Ruleset) *Planner {
	p := &Planner{
		rules:     rs,
		templates: make(map[string]*template, len(rs.Intents)),
		policies:  make(map[string]*Policy, len(rs.Modes)),
		sources:   make(map[string]string, len(rs.Sources)),
	}
	for _, s := range rs.Sources {
		if s.Configured() {
			p.sources[s.Name] = s.Plugin
		}
	}
	pol := compilePolicy(rs)
	p.undefined = &pol
	for _, m := range rs.Modes {
		mp := pol
		mp.Mode = compileMode(m)
		p.policies[m.Name] = &mp
	}
	for _, in := range rs.Intents {
		t := compileTemplate(in)
		p.templates[in.Name] = t
		if in.Detect != nil {
			p.detectors = append(p.detectors, t)
		}
	}
	if rs.Settings.Fallback != "" {
		p.fallback = p.templates[rs.Settings.Fallback]
	}
	for _, d := range rs.Dependencies {
		p.crossDeps = append(p.crossDeps, crossDep{
			rule:     d,
			fromStep: p.stepIndex(d.FromIntent, d.FromHypothesis),
			toStep:   p.stepIndex(d.ToIntent, d.ToHypothesis),
		})
	}
	for i := range precomputedIDs {
		n := strconv.Itoa(i)
		p.stepIDs = append(p.stepIDs, "h"+n)
		p.planIDs = append(p.planIDs, "plan"+n)
		p.queryIDs = append(p.queryIDs, "plan"+n+"_query")
	}
	return p
}

// Rules returns the ruleset the planner was built from.
func (p *Planner) Rules() *rules.Ruleset { return p.rules }

// Policy returns what a run in mode needs of the rules; its Mode is nil
// when the rules do not define mode. It is shared: do not modify it.
func (p *Planner) Policy(mode string) *Policy {
	if pol := p.policies[mode]; pol != nil {
		return pol
	}
	return p.undefined
}

// CheckMode returns an error when the rules define no mode named name;
// "" asks the planner to choose and is always accepted.
func (p *Planner) CheckMode(name string) error {
	if name == "" || p.policies[name] != nil {
		return nil
	}
	names := make([]string, len(p.rules.Modes))
	for i, m := range p.rules.Modes {
		names[i] = m.Name
	}
	return fmt.Errorf("mode %q is not defined (modes: %s)", name, strings.Join(names, ", "))
}

func (p *Planner) stepIndex(intent, hypothesis string) int {
	if t := p.templates[intent]; t != nil {
		return hypothesisIndex(t.intent, hypothesis)
	}
	return -1
}

func (p *Planner) stepID(i int) string {
	if i < len(p.stepIDs) {
		return p.stepIDs[i]
	}
	return "h" + strconv.Itoa(i)
}

func (p *Planner) planID(i int) string {
	if i < len(p.planIDs) {
		return p.planIDs[i]
	}
	return "plan" + strconv.Itoa(i)
}

func (p *Planner) queryID(i int) string {
	if i < len(p.queryIDs) {
		return p.queryIDs[i]
	}
	return "plan" + strconv.Itoa(i) + "_query"
}

func hypothesisIndex(in *rules.Intent, name string) int {
	for i, h := range in.Hypotheses {
		if h.Name == name {
			return i
		}
	}
	return -1
}

// compileTemplate turns an intent's resolved edges (its pattern's and its
// depends_on lists', see rules.Intent.Edges) into per-hypothesis dependency
// lists, and binds each retrieval to the step that runs it.
func compileTemplate(in *rules.Intent) *template {
	n := len(in.Hypotheses)
	t := &template{intent: in, steps: make([]Step, n), deps: make([][]int, n)}
	for i, h := range in.Hypotheses {
		action, role, agent := h.Runs()
		t.steps[i] = Step{Action: Action(action), Role: Role(role), Agent: agent}
	}
	g := graph.New(n)
	for _, e := range in.Edges {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n || slices.Contains(t.deps[e.To], e.From) {
			continue
		}
		t.deps[e.To] = append(t.deps[e.To], e.From)
		g.AddEdge(e.From, e.To)
	}
	for _, deps := range t.deps {
		slices.Sort(deps)
	}
	t.cyclic = len(g.BackEdges()) > 0

	for _, r := range in.Retrievals {
		// The rules default Hypothesis to the first retrieve step; with none,
		// the intent's first step runs it, and with no steps nothing does.
		rt := retrievalTemplate{rule: r, description: cmp.Or(r.Description, r.Name), step: -1, defaults: make([][]string, len(r.Filters))}
		if n > 0 {
			rt.step = max(hypothesisIndex(in, r.Hypothesis), 0)
		}
		for k, key := range r.Filters {
			rt.defaults[k] = r.Defaults[key]
		}
		for _, key := range slices.Sorted(maps.Keys(r.Fixed)) {
			rt.fixed = append(rt.fixed, Filter{Key: key, Values: r.Fixed[key]})
		}
		t.retrievals = append(t.retrievals, rt)
	}
	return t
}
