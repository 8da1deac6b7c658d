package rules

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
	sdkredact "github.com/nous-dev/nous/sdk/redact"
)

// compile turns the decoded blocks into the Ruleset: it waits for the
// compilations decoding scheduled, resolves names across files, fills in
// the defaults that depend on other blocks and builds the lookup index.
// Secret values read by env() are redacted from the diagnostics.
func (d *decoder) compile() (*Ruleset, hcl.Diagnostics) {
	d.runJobs()
	rs := d.rs
	for _, e := range rs.Entities {
		e.Patterns = slices.DeleteFunc(e.Patterns, func(re *cond.Regexp) bool { return re == nil })
	}
	rs.index = index{
		sources:  indexBy(rs.Sources, func(s *Source) string { return s.Name }),
		agents:   indexBy(rs.Agents, func(a *Agent) string { return a.Name }),
		intents:  indexBy(rs.Intents, func(in *Intent) string { return in.Name }),
		entities: indexBy(rs.Entities, func(e *Entity) string { return e.Name }),
		modes:    indexBy(rs.Modes, func(m *Mode) string { return m.Name }),
		tiers:    indexBy(rs.Tiers, func(t *Tier) string { return t.Source }),
		prompts:  indexBy(rs.Prompts, func(p *Prompt) string { return p.Role }),
	}
	d.compileDepths()
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
	redact(d.diags, rs.secrets)
	return rs, d.diags
}

func (d *decoder) resolve(ref reference) {
	rs := d.rs
	switch ref.kind {
	case "source":
		defined(d, ref, rs.index.sources, "source", "a source block", "sources")
	case "agent":
		defined(d, ref, rs.index.agents, "agent", "an agent block", "agents")
	case "entity":
		defined(d, ref, rs.index.entities, "entity", "entity blocks", "entities")
	case "intent":
		defined(d, ref, rs.index.intents, "intent", "intent blocks", "intents")
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

// defined reports ref as an unknown reference unless it names a key of
// blocks: what names a block of the kind, the kind's singular and plural.
func defined[V any](d *decoder, ref reference, blocks map[string]V, kind, what, plural string) {
	if _, ok := blocks[ref.name]; !ok {
		d.add(Error(CheckUnknownReference, ref.where, fmt.Sprintf("Unknown %s %q", kind, ref.name),
			fmt.Sprintf("%s names %s; defined %s: %s.", ref.attr, what, plural, names(blocks))))
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

// redact removes secret values from diagnostic texts: a value read by env()
// from a secret-looking variable may end up quoted in an error.
func redact(diags hcl.Diagnostics, secrets []string) {
	if len(secrets) == 0 {
		return
	}
	r := sdkredact.New(secrets...)
	for _, d := range diags {
		d.Summary, d.Detail = r.String(d.Summary), r.String(d.Detail)
	}
}
