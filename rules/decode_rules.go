package rules

import (
	"fmt"
	"strings"
	"text/template"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
)

func (d *decoder) decodeDependency(b *hcl.Block) {
	dep := &Dependency{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, dependencySchema)
	d.condition(c.Attributes, "when", cond.QueryEnv{}, &dep.When)
	for _, end := range []struct {
		attr               string
		intent, hypothesis *string
	}{{"from", &dep.FromIntent, &dep.FromHypothesis}, {"to", &dep.ToIntent, &dep.ToHypothesis}} {
		var s string
		if !d.str(c.Attributes, end.attr, &s) {
			continue
		}
		at := c.Attributes[end.attr].Expr.Range()
		intent, hyp, ok := strings.Cut(s, ".")
		if !ok || intent == "" || hyp == "" {
			d.add(Error(CheckInvalidValue, at, fmt.Sprintf("Invalid %q", end.attr),
				fmt.Sprintf("Expected \"INTENT.HYPOTHESIS\", such as \"query_commits.retrieve\", got %q.", s)))
			continue
		}
		*end.intent, *end.hypothesis = intent, hyp
		d.refs = append(d.refs, reference{kind: "intent.hypothesis", name: s, where: at, attr: end.attr})
	}
	if d.define("dependency", dep.Name, b.DefRange) {
		d.rs.Dependencies = append(d.rs.Dependencies, dep)
	}
}

func (d *decoder) decodeEntity(b *hcl.Block) {
	e := &Entity{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, entitySchema)
	var (
		patterns []string
		ranges   []hcl.Range
	)
	one, many := c.Attributes["pattern"], c.Attributes["patterns"]
	d.oneOf(c.Attributes, "finder", &e.Finder, Finders...)
	d.oneOf(c.Attributes, "ground", &e.Ground, GroundKinds...)
	e.Matches = MatchesAny
	d.oneOf(c.Attributes, "matches", &e.Matches, MatchesAny, MatchesOne)
	switch {
	case c.Attributes["finder"] != nil && (one != nil || many != nil):
		d.add(Error(CheckSchema, c.Attributes["finder"].NameRange, `Both "finder" and a pattern`, "An entity takes its values from a built-in finder or from patterns, not both."))
	case c.Attributes["finder"] != nil:
	case one == nil && many == nil:
		d.add(Error(CheckSchema, b.DefRange, "Missing entity pattern", `An entity needs "pattern" (one regexp), "patterns" (a list) or "finder" (a built-in extractor).`))
	case one != nil && many != nil:
		d.add(Error(CheckSchema, many.NameRange, `Both "pattern" and "patterns"`, "Use one of them: pattern for one regexp, patterns for a list."))
	case one != nil:
		var p string
		if d.str(c.Attributes, "pattern", &p) {
			patterns, ranges = []string{p}, []hcl.Range{one.Expr.Range()}
		}
	default:
		if d.strs(c.Attributes, "patterns", &patterns) {
			ranges = elementRanges(many, len(patterns))
		}
	}
	d.compilePatterns(e, patterns, ranges)
	d.strs(c.Attributes, "ignore", &e.Ignore)
	if d.define("entity", e.Name, b.DefRange) {
		d.rs.Entities = append(d.rs.Entities, e)
	}
}

// compilePatterns schedules the compilation of an entity's patterns; the
// slot of an invalid one stays nil and is dropped in compile.
func (d *decoder) compilePatterns(e *Entity, patterns []string, ranges []hcl.Range) {
	e.Patterns = make([]*cond.Regexp, len(patterns))
	for i, pattern := range patterns {
		d.later(func() hcl.Diagnostics {
			re, err := d.conds.Regexp(pattern)
			if err != nil {
				return hcl.Diagnostics{Error(CheckRegexp, ranges[i], "Invalid entity pattern", fmt.Sprintf("Entity %q: %v.", e.Name, err))}
			}
			e.Patterns[i] = re
			return nil
		})
	}
}

func (d *decoder) decodeMode(b *hcl.Block) {
	m := &Mode{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, modeSchema)
	d.condition(c.Attributes, "when", cond.QueryEnv{}, &m.When)
	d.condition(c.Attributes, "keep", cond.ItemEnv{}, &m.Keep)
	d.condition(c.Attributes, "warn", cond.ItemEnv{}, &m.Warn)
	d.oneOf(c.Attributes, "on_empty", &m.OnEmpty, "error", "warn", "ignore")
	if d.ints(c.Attributes, "compare", &m.Compare) {
		for _, t := range m.Compare {
			if t < 0 {
				d.add(Error(CheckOutOfRange, c.Attributes["compare"].Expr.Range(), `"compare" out of range`,
					fmt.Sprintf("Tiers are 0 or more, got %d.", t)))
			}
		}
	}
	if d.define("mode", m.Name, b.DefRange) {
		d.rs.Modes = append(d.rs.Modes, m)
	}
}

func (d *decoder) decodeTier(b *hcl.Block) {
	t := &Tier{Source: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, tierSchema)
	if d.int(c.Attributes, "tier", &t.Tier) {
		d.atLeast(c.Attributes, "tier", t.Tier, 0)
	}
	d.str(c.Attributes, "type", &t.Type)
	if d.define("tier", t.Source, b.DefRange) {
		d.rs.Tiers = append(d.rs.Tiers, t)
	}
}

func (d *decoder) decodeCheck(b *hcl.Block) {
	ch := &Check{Name: b.Labels[0], OnFail: "warn", Range: b.DefRange}
	c := d.content(b.Body, checkSchema)
	d.condition(c.Attributes, "applies", cond.StepEnv{}, &ch.Applies)
	d.condition(c.Attributes, "assert", cond.StepEnv{}, &ch.Assert)
	d.str(c.Attributes, "message", &ch.Message)
	d.oneOf(c.Attributes, "on_fail", &ch.OnFail, "refine", "warn", "fail")
	for _, blk := range c.Blocks {
		if ch.Refine != nil {
			d.add(Error(CheckDuplicateName, blk.DefRange, "Duplicate refine block",
				fmt.Sprintf("Check %q already has a refine block at %s.", ch.Name, ch.Refine.Range)))
			continue
		}
		ch.Refine = d.decodeRefine(blk)
	}
	if ch.OnFail == "refine" && ch.Refine == nil {
		d.add(Error(CheckSchema, c.Attributes["on_fail"].Expr.Range(), "Missing refine block",
			`on_fail = "refine" needs a refine block saying how to refine the step.`))
	}
	if d.define("check", ch.Name, b.DefRange) {
		d.rs.Checks = append(d.rs.Checks, ch)
	}
}

func (d *decoder) decodeRefine(b *hcl.Block) *Refine {
	r := &Refine{Op: "MODIFY", Range: b.DefRange}
	c := d.content(b.Body, refineSchema)
	d.oneOf(c.Attributes, "op", &r.Op, "ADD", "MODIFY", "REMOVE", "REPLACE")
	d.strs(c.Attributes, "drop_filters", &r.DropFilters)
	d.stringLists(c.Attributes, "set_filters", &r.SetFilters)
	if d.int(c.Attributes, "limit", &r.Limit) {
		d.atLeast(c.Attributes, "limit", r.Limit, 0)
	}
	if d.oneOf(c.Attributes, "nearest", &r.Nearest, NearestBefore, NearestAfter) && r.Op != "MODIFY" {
		d.add(Error(CheckInvalidValue, c.Attributes["nearest"].Expr.Range(), `"nearest" needs op = "MODIFY"`,
			fmt.Sprintf("A nearest refinement re-runs the step around its asked period; op %q cannot do that.", r.Op)))
	}
	return r
}

func (d *decoder) decodePrompt(b *hcl.Block) {
	p := &Prompt{Role: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, promptSchema)
	if d.str(c.Attributes, "template", &p.Template) {
		at := c.Attributes["template"].Expr.Range()
		d.later(func() hcl.Diagnostics {
			t, err := template.New(p.Role).Funcs(PromptFuncs()).Option("missingkey=error").Parse(p.Template)
			if err != nil {
				return hcl.Diagnostics{Error(CheckTemplate, at, "Invalid prompt template", fmt.Sprintf("Prompt %q: %v.", p.Role, err))}
			}
			p.Parsed = t
			return nil
		})
	}
	if d.define("prompt", p.Role, b.DefRange) {
		d.rs.Prompts = append(d.rs.Prompts, p)
	}
}
