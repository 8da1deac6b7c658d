package engine

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/timerange"
)

// Interpret plans req like Plan, then grounds the question's constraints
// against the sources of the plan through g (nil grounds nothing), resolves
// its dates against now, plans again with the grounded entities and
// attaches the Interpretation. A source that cannot be asked (not
// configured, unreachable) is noted in the interpretation, not an error:
// the run reports it.
func (p *Planner) Interpret(ctx context.Context, req Request, g Grounding, now time.Time) (*Plan, error) {
	plan, err := p.Plan(ctx, req)
	if err != nil {
		return nil, err
	}
	in := &Interpretation{Now: now, Constraints: []Constraint{}}
	var gr grounding
	if g != nil && len(plan.Retrieval.Plans) > 0 {
		gr = p.ground(ctx, plan, g, now)
		in.Grounded, in.Sources, in.Unknown, in.Missing = true, gr.views, gr.unknown, gr.missing
		if gr.changed {
			again := req
			again.Entities = gr.entities
			if plan, err = p.Plan(ctx, again); err != nil {
				return nil, err
			}
		}
		in.Constraints = append(in.Constraints, gr.satisfied...)
		plan.Ambiguities = append(plan.Ambiguities, gr.ambiguities...)
	}
	p.describe(plan, in)
	for i, c := range in.Constraints {
		if r, ok := gr.read[c.Key+"\x00"+c.Value]; ok {
			in.Constraints[i].Phrase, in.Constraints[i].Source, in.Constraints[i].Reason = r.Phrase, r.Source, r.Reason
		}
	}
	in.FollowUp = req.FollowUp
	plan.Interpretation = in
	return plan, nil
}

// describe lists the plan's constraints, resolves its dates and notes the
// filters a source of the plan cannot apply.
func (p *Planner) describe(plan *Plan, in *Interpretation) {
	seen := map[string]bool{}
	for _, rp := range plan.Retrieval.Plans {
		for _, f := range rp.Filters {
			if f.Key == datesKey {
				// Only the question's own period is the question's: a
				// retrieval's fixed or default dates are its intent's alone.
				if in.Dates == nil && slices.Equal(f.Values, plan.Reasoning.Entities[datesKey]) {
					in.Dates = p.resolveDates(f.Values, in)
				}
				continue
			}
			for _, v := range f.Values {
				if k := f.Key + "\x00" + v; !seen[k] {
					seen[k] = true
					in.Constraints = append(in.Constraints, Constraint{Key: f.Key, Value: v})
				}
			}
			for _, src := range rp.Sources {
				view := in.source(src)
				if view == nil || view.Error != "" || len(view.Filters) == 0 || slices.Contains(view.Filters, f.Key) {
					continue
				}
				for _, v := range f.Values {
					c := Constraint{Key: f.Key, Value: v, Source: src,
						Reason: fmt.Sprintf("source %q cannot filter by %s", src, f.Key)}
					if !slices.Contains(in.Unapplied, c) {
						in.Unapplied = append(in.Unapplied, c)
					}
				}
			}
		}
	}
}

// datesKey is the entity whose values are resolved into a time range.
const datesKey = "dates"

// resolveDates resolves the dates filter; an expression that does not
// resolve is an unapplied constraint.
func (p *Planner) resolveDates(values []string, in *Interpretation) *DateRange {
	r, err := timerange.Resolve(values, in.Now)
	if err != nil {
		for _, v := range values {
			in.Unapplied = append(in.Unapplied, Constraint{Key: datesKey, Value: v, Reason: err.Error()})
		}
		return nil
	}
	return &DateRange{Phrases: slices.Clone(values), Since: r.Since, Until: r.Until}
}

func (in *Interpretation) source(name string) *SourceView {
	for i := range in.Sources {
		if in.Sources[i].Name == name {
			return &in.Sources[i]
		}
	}
	return nil
}

// grounding is what the sources said of the question's candidates.
type grounding struct {
	views     []SourceView
	entities  map[string][]string   // the entities with grounded values
	unknown   []Constraint          // candidates no source knows
	missing   []Constraint          // paths no source has, kept as filters
	satisfied []Constraint          // candidates a source is (a project naming the repository itself)
	read      map[string]Constraint // key\x00canonical → how a grounded value was read from the question
	// ambiguities are the values a source grounded to several things.
	ambiguities []Ambiguity
	changed     bool
}

// candidate is one entity value to ground, per source.
type candidate struct {
	key, value string
	terms      []sdk.Term // one, or a revision range's two sides
}

// ground asks every source of the plan about the values of its grounded
// entities, one call per source, and rewrites the entities: a value some
// source knows is replaced by its canonical forms; a value no source knows
// is dropped when at least one asked source can ground (answered anything
// known or described its coverage), unless it is a path (missingPaths);
// otherwise it is kept as written.
//
// The question's period, when it resolves, goes with every request: a
// source may judge its terms in it (the authors with commits in it).
func (p *Planner) ground(ctx context.Context, plan *Plan, g Grounding, now time.Time) grounding {
	entities := plan.Reasoning.Entities
	var period timerange.Range
	if dates := entities[datesKey]; len(dates) > 0 {
		period, _ = timerange.Resolve(dates, now) // unresolved: no period; describe says why
	}
	out := grounding{entities: make(map[string][]string, len(entities)), read: map[string]Constraint{}}
	for k, v := range entities {
		out.entities[k] = slices.Clone(v)
	}
	asked := map[string][]candidate{} // source → candidates
	var order []string
	for _, rp := range plan.Retrieval.Plans {
		for _, src := range rp.Sources {
			if _, ok := asked[src]; !ok {
				asked[src] = nil
				order = append(order, src)
			}
			for _, f := range rp.Filters {
				e := p.entity(f.Key)
				if e == nil || e.Ground == "" || len(entities[f.Key]) == 0 {
					continue
				}
				for _, v := range entities[f.Key] {
					c := candidate{key: f.Key, value: v, terms: termsOf(e.Ground, v)}
					if !slices.ContainsFunc(asked[src], func(x candidate) bool { return x.key == c.key && x.value == c.value }) {
						asked[src] = append(asked[src], c)
					}
				}
			}
		}
	}
	type verdict struct {
		known, canGround bool
		canonical        []string
		asked            []string // sources asked about it
		sources          []string // sources that know it
		grounders        []string // sources that can ground and do not know it
		note             string   // the first grounder's reason
		read             string   // the first knowing source's note on an author it read as another name
	}
	verdicts := map[string]*verdict{}
	for _, src := range order {
		cands := asked[src]
		req := sdk.GroundRequest{Since: period.Since, Until: period.Until}
		for _, c := range cands {
			req.Terms = append(req.Terms, c.terms...)
		}
		view := SourceView{Name: src}
		resp, err := g.Ground(ctx, src, req)
		if err != nil {
			view.Error = err.Error()
			out.views = append(out.views, view)
			continue
		}
		view.Filters, view.Coverage = resp.Filters, resp.Coverage
		out.views = append(out.views, view)
		if len(resp.Terms) != len(req.Terms) {
			continue // the plugin host validates this; a fake may not
		}
		canGround := !resp.Coverage.Latest.IsZero() || slices.ContainsFunc(resp.Terms, func(t sdk.GroundedTerm) bool { return t.Known })
		at := 0
		for _, c := range cands {
			answers := resp.Terms[at : at+len(c.terms)]
			at += len(c.terms)
			k := c.key + "\x00" + c.value
			v := verdicts[k]
			if v == nil {
				v = &verdict{}
				verdicts[k] = v
			}
			v.canGround = v.canGround || canGround
			v.asked = append(v.asked, src)
			out.noteMatches(p.entity(c.key), cmp.Or(resp.Coverage.Name, src), answers)
			known, canon := resolveTerms(c, answers)
			if !known && canGround {
				v.grounders = append(v.grounders, src)
				if v.note == "" {
					v.note = unknownNote(answers)
				}
			}
			if known {
				if e := p.entity(c.key); e.Ground == sdk.TermAuthor && v.read == "" && len(canon) == 1 && canon[0] != c.value {
					v.read = answers[0].Note
				}
				v.known = true
				v.sources = append(v.sources, src)
				for _, cv := range canon {
					if !slices.Contains(v.canonical, cv) {
						v.canonical = append(v.canonical, cv)
					}
				}
			}
		}
	}
	// Rewrite the entities in their own order. A phrase known under one
	// entity, or part of one ("CHANGELOG" of the path "CHANGELOG.md"), is
	// not reported unknown under another.
	var known []string
	for k, v := range verdicts {
		if v.known {
			known = append(known, strings.ToLower(k[strings.IndexByte(k, 0)+1:]))
		}
	}
	reported := map[string]bool{}
	partOfKnown := func(phrase string) bool {
		return slices.ContainsFunc(known, func(k string) bool { return strings.Contains(k, phrase) })
	}
	// A path-looking phrase no source has is asked about as a path, and a
	// named author no source knows as that author: kept, said missing
	// once, and not also an unknown project. Dropping them would answer
	// about everything.
	missing := map[string]bool{}
	for _, e := range p.rules.Entities {
		if e.Ground != sdk.TermPath && e.Ground != sdk.TermAuthor {
			continue
		}
		for _, val := range entities[e.Name] {
			v := verdicts[e.Name+"\x00"+val]
			phrase := strings.ToLower(val)
			if v == nil || v.known || (e.Ground == sdk.TermPath && !looksLikePath(val)) || !filtersBy(out.views, v.grounders, e.Name) || partOfKnown(phrase) || reported[phrase] {
				continue
			}
			reported[phrase], missing[e.Name+"\x00"+val] = true, true
			why := v.note
			if why == "" {
				why = fmt.Sprintf("no source of the plan has %q", val)
			}
			out.missing = append(out.missing, Constraint{Key: e.Name, Value: val, Source: strings.Join(v.grounders, ", "), Reason: why, Ground: e.Ground})
		}
	}
	for _, e := range p.rules.Entities {
		values := entities[e.Name]
		if e.Ground == "" || len(values) == 0 {
			continue
		}
		var kept []string
		for _, val := range values {
			v := verdicts[e.Name+"\x00"+val]
			whole := ""
			if e.Ground == sdk.TermPath && v != nil {
				whole = wholeRepository(out.views, v.asked, val, v.canonical)
			}
			switch {
			case e.Ground == sdk.TermPath && slices.Contains(values, val+"/"):
				// "hcl/" is also extracted as "hcl": one phrase, asked as written.
				out.changed = true
			case whole != "":
				// The repository's own name is the whole repository, not a path.
				out.changed, reported[strings.ToLower(val)] = true, true
				if !slices.ContainsFunc(out.satisfied, func(c Constraint) bool { return c.Key == projectsKey && strings.EqualFold(c.Value, val) }) {
					out.satisfied = append(out.satisfied, Constraint{Key: projectsKey, Value: val, Source: whole})
				}
			case v == nil || (!v.known && !v.canGround) || missing[e.Name+"\x00"+val]:
				kept = appendNew(kept, val)
			case v.known && e.Ground == sdk.TermProject && !filtersBy(out.views, v.sources, e.Name):
				// The source is the project named: nothing to filter.
				out.satisfied = append(out.satisfied, Constraint{Key: e.Name, Value: val, Source: strings.Join(v.sources, ", ")})
				out.changed = true
			case v.known:
				for _, cv := range v.canonical {
					kept = appendNew(kept, cv)
				}
				if len(v.canonical) != 1 || v.canonical[0] != val {
					out.changed = true
					read := Constraint{Phrase: val, Source: strings.Join(v.sources, ", ")}
					switch {
					case e.Ground == sdk.TermPath:
						read.Reason = pathAmbiguity(val, v.canonical)
					case len(v.canonical) > 1:
						read.Reason = fmt.Sprintf("%q matches %d %s", val, len(v.canonical), termNouns[e.Ground])
					case e.Ground == sdk.TermAuthor:
						read.Reason = v.read
					}
					for _, cv := range v.canonical {
						if _, ok := out.read[e.Name+"\x00"+cv]; !ok && cv != val {
							out.read[e.Name+"\x00"+cv] = read
						}
					}
				}
			default:
				out.changed = true
				if phrase := strings.ToLower(val); !reported[phrase] && !partOfKnown(phrase) {
					reported[phrase] = true // once, under its first entity
					shown := rules.ReleaseOf(val)
					why := fmt.Sprintf("no source of the plan knows %q as %s", shown, article(e.Ground))
					if e.Ground == sdk.TermRef && v.note != "" {
						why += ": " + v.note // which refs there are
					}
					out.unknown = append(out.unknown, Constraint{Key: e.Name, Value: shown, Reason: why})
				}
			}
		}
		if len(kept) == 0 {
			delete(out.entities, e.Name)
		} else {
			out.entities[e.Name] = kept
		}
	}
	out.dropKnownPhrases(p.rules.Entities, known)
	return out
}

// dropKnownPhrases removes from the ungrounded entities (topics) each phrase
// a source knew under a grounded one, or the first word of one: "what
// about hclsyntax?" is the path hclsyntax, "what about Ville Vesilehto?"
// the author, not also words to find in commit messages.
func (g *grounding) dropKnownPhrases(entities []*rules.Entity, known []string) {
	for _, e := range entities {
		values := g.entities[e.Name]
		if e.Ground != "" || len(values) == 0 {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(values), func(v string) bool {
			v = strings.ToLower(v)
			return slices.ContainsFunc(known, func(k string) bool { return k == v || strings.HasPrefix(k, v+" ") })
		})
		if len(kept) == len(values) {
			continue
		}
		g.changed = true
		if len(kept) == 0 {
			delete(g.entities, e.Name)
		} else {
			g.entities[e.Name] = kept
		}
	}
}

// noteMatches records each term a source grounded to several things (a
// source is asked about each value once); where names what the source
// holds (its coverage name).
func (g *grounding) noteMatches(e *rules.Entity, where string, answers []sdk.GroundedTerm) {
	for _, a := range answers {
		if a.Known && len(a.Canonical) > 1 {
			g.ambiguities = append(g.ambiguities, multipleMatches(e, a, where))
		}
	}
}

// projectsKey is the entity a word naming a source's repository is read as.
const projectsKey = "projects"

// wholeRepository names the sources (of those asked) whose repository a
// path candidate is: a bare word that is the repository's name
// (Coverage.Name, or its last component, in any case), or the root the
// source grounded it to. Empty when it is not.
func wholeRepository(views []SourceView, asked []string, val string, canonical []string) string {
	if len(canonical) == 1 && canonical[0] == "." {
		return strings.Join(asked, ", ")
	}
	if looksLikePath(val) {
		return ""
	}
	var names []string
	for _, v := range views {
		n := v.Coverage.Name
		if n == "" || !slices.Contains(asked, v.Name) {
			continue
		}
		if strings.EqualFold(n, val) || strings.EqualFold(n[strings.LastIndexByte(n, '/')+1:], val) {
			names = append(names, v.Name)
		}
	}
	return strings.Join(names, ", ")
}

// pathAmbiguity says why a bare phrase grounded to paths is ambiguous:
// several paths, or one whose name differs from the phrase (another
// case). Empty for a path written as it is, or a unique exact-case name.
func pathAmbiguity(phrase string, canonical []string) string {
	switch {
	case len(canonical) > 1:
		return fmt.Sprintf("%q matches %d paths by name", phrase, len(canonical))
	case len(canonical) == 1 && path.Base(canonical[0]) != path.Base(phrase):
		return fmt.Sprintf("%q matches %s only in another case", phrase, canonical[0])
	}
	return ""
}

// filtersBy reports whether any of sources applies the filter key; a source
// that did not list its filters is assumed to.
func filtersBy(views []SourceView, sources []string, key string) bool {
	for _, v := range views {
		if slices.Contains(sources, v.Name) && (len(v.Filters) == 0 || slices.Contains(v.Filters, key)) {
			return true
		}
	}
	return false
}

func (p *Planner) entity(name string) *rules.Entity { return p.rules.Entity(name) }

// termsOf is the terms a value is grounded as: a revision range's two
// sides as refs, else the value itself.
func termsOf(kind, value string) []sdk.Term {
	if kind == sdk.TermRef {
		if from, to, ok := strings.Cut(value, ".."); ok {
			terms := []sdk.Term{{Kind: kind, Value: from}}
			if to != "" {
				terms = append(terms, sdk.Term{Kind: kind, Value: to})
			}
			return terms
		}
	}
	return []sdk.Term{{Kind: kind, Value: value}}
}

// resolveTerms reports whether a candidate is known from its terms'
// answers and its canonical forms. A revision range is known when both
// sides are; its canonical form joins the sides' first canonical names.
func resolveTerms(c candidate, answers []sdk.GroundedTerm) (bool, []string) {
	canon := func(t sdk.GroundedTerm) []string {
		if len(t.Canonical) == 0 {
			return []string{t.Value}
		}
		return t.Canonical
	}
	for _, a := range answers {
		if !a.Known {
			return false, nil
		}
	}
	if len(c.terms) == 1 && !strings.Contains(c.value, "..") {
		return true, canon(answers[0])
	}
	from := canon(answers[0])[0]
	to := ""
	if len(answers) > 1 {
		to = canon(answers[1])[0]
	}
	if from == "" && to != "" { // no tag before a first release: all of its history
		return true, []string{to}
	}
	return true, []string{from + ".." + to}
}

// unknownNote is the note of the first term a source did not know: why a
// range is unknown when one of its sides is.
func unknownNote(answers []sdk.GroundedTerm) string {
	for _, a := range answers {
		if !a.Known {
			return a.Note
		}
	}
	return ""
}

func appendNew(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// looksLikePath reports whether a candidate can only be a path: it has a
// slash ("vm/vm.go", "docs/") or a file extension ("main.go").
func looksLikePath(v string) bool {
	if strings.Contains(v, "/") {
		return true
	}
	dot := strings.LastIndexByte(v, '.')
	if dot <= 0 || dot == len(v)-1 || len(v)-dot > 6 {
		return false
	}
	ext := v[dot+1:]
	return strings.IndexFunc(ext, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') }) < 0 &&
		strings.ContainsFunc(ext, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' })
}

// article puts "a" or "an" before a term kind: "an author", "a path".
func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}
