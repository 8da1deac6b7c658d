package rules

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// finish resolves names across files, fills in defaults that depend on
// other blocks and builds the lookup index.
func (d *decoder) finish() {
	d.runJobs()
	rs := d.rs
	for _, e := range rs.Entities {
		e.Patterns = slices.DeleteFunc(e.Patterns, func(re *regexp.Regexp) bool { return re == nil })
		e.prefilters = e.prefilters[:0]
		for _, re := range e.Patterns {
			e.prefilters = append(e.prefilters, newPrefilter(re))
		}
	}
	rs.index = index{
		sources: indexBy(rs.Sources, func(s *Source) string { return s.Name }),
		agents:  indexBy(rs.Agents, func(a *Agent) string { return a.Name }),
		intents: indexBy(rs.Intents, func(in *Intent) string { return in.Name }),
		modes:   indexBy(rs.Modes, func(m *Mode) string { return m.Name }),
		tiers:   indexBy(rs.Tiers, func(t *Tier) string { return t.Source }),
		prompts: indexBy(rs.Prompts, func(p *Prompt) string { return p.Role }),
	}
	for _, ref := range d.refs {
		d.resolve(ref)
	}
	for _, r := range d.unsetPrio {
		if s := rs.index.sources[r.Source]; s != nil {
			r.Priority = s.Priority
		}
	}
	if a := d.defaultMode; a != nil && rs.index.modes[rs.Settings.DefaultMode] == nil {
		d.add(Error(CheckUnknownReference, a.Expr.Range(), fmt.Sprintf("Unknown mode %q", rs.Settings.DefaultMode),
			fmt.Sprintf("default_mode names a mode block; defined modes: %s.", names(rs.index.modes))))
	}
	if a := d.fallback; a != nil && rs.index.intents[rs.Settings.Fallback] == nil {
		d.add(Error(CheckUnknownReference, a.Expr.Range(), fmt.Sprintf("Unknown intent %q", rs.Settings.Fallback),
			fmt.Sprintf("fallback names an intent block; defined intents: %s.", names(rs.index.intents))))
	}
	rs.secrets = slices.Sorted(maps.Keys(d.secrets))
}

func (d *decoder) resolve(ref reference) {
	rs := d.rs
	switch ref.kind {
	case "source":
		if rs.index.sources[ref.name] == nil {
			d.add(Error(CheckUnknownReference, ref.where, fmt.Sprintf("Unknown source %q", ref.name),
				fmt.Sprintf("%s names a source block; defined sources: %s.", ref.attr, names(rs.index.sources))))
		}
	case "agent":
		if rs.index.agents[ref.name] == nil {
			d.add(Error(CheckUnknownReference, ref.where, fmt.Sprintf("Unknown agent %q", ref.name),
				fmt.Sprintf("%s names an agent block; defined agents: %s.", ref.attr, names(rs.index.agents))))
		}
	case "intent.hypothesis":
		intent, hyp, _ := strings.Cut(ref.name, ".")
		in := rs.index.intents[intent]
		if in == nil {
			d.add(Error(CheckUnknownReference, ref.where, fmt.Sprintf("Unknown intent %q", intent),
				fmt.Sprintf("%s names INTENT.HYPOTHESIS; defined intents: %s.", ref.attr, names(rs.index.intents))))
			return
		}
		if in.Hypothesis(hyp) == nil {
			d.add(Error(CheckUnknownReference, ref.where, fmt.Sprintf("Unknown hypothesis %q", ref.name),
				fmt.Sprintf("Intent %q has hypotheses %s.", intent, nameList(in.Hypotheses))))
		}
	}
}

// indexBy maps each item's key to the item. Duplicates were reported and
// not added, so keys are unique.
func indexBy[T any](items []*T, key func(*T) string) map[string]*T {
	m := make(map[string]*T, len(items))
	for _, it := range items {
		m[key(it)] = it
	}
	return m
}

// names lists a map's keys for messages.
func names[V any](m map[string]V) string {
	if len(m) == 0 {
		return "none"
	}
	keys := slices.Sorted(maps.Keys(m))
	for i, k := range keys {
		keys[i] = strconv.Quote(k)
	}
	return strings.Join(keys, ", ")
}

// Files returns the parsed rule files by name, for diagnostic snippets.
// The map is a copy; the files must not be modified.
func (r *Ruleset) Files() map[string]*hcl.File { return maps.Clone(r.files) }

// Secrets returns the values env() read from variables whose names look
// secret (containing TOKEN, KEY, SECRET or PASSWORD), for redaction.
func (r *Ruleset) Secrets() []string { return slices.Clone(r.secrets) }

// Hypothesis returns the intent's hypothesis named name, or nil.
func (in *Intent) Hypothesis(name string) *Hypothesis {
	for _, h := range in.Hypotheses {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// SortDiagnostics orders diagnostics by file, line and column, keeping the
// order of equal positions.
func SortDiagnostics(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a != nil && b == nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		case a.Start.Line != b.Start.Line:
			return a.Start.Line < b.Start.Line
		default:
			return a.Start.Column < b.Start.Column
		}
	})
}
