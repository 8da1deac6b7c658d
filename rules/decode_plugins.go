package rules

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

var (
	sha256Hex  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F]{64}$`) })
	recordKind = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]*$`) })
)

// pluginCommon decodes the attributes shared by source and agent blocks; it
// reports whether plugin was decoded.
func (d *decoder) pluginCommon(c *hcl.BodyContent, plugin, sum *string, config *map[string]any) bool {
	decoded := d.str(c.Attributes, "plugin", plugin)
	if d.str(c.Attributes, "sha256", sum) && !sha256Hex().MatchString(*sum) {
		d.add(Error(CheckInvalidValue, c.Attributes["sha256"].Expr.Range(), `Invalid "sha256"`,
			fmt.Sprintf("A SHA-256 checksum is 64 hexadecimal digits, got %q.", *sum)))
	}
	if a, ok := c.Attributes["config"]; ok {
		if v, ok := d.value(d.chosenConfig(a), cty.DynamicPseudoType); ok {
			if !v.Type().IsObjectType() && !v.Type().IsMapType() {
				d.add(Error(CheckType, a.Expr.Range(), `Invalid value for "config"`,
					fmt.Sprintf("An object is required here, got a %s.", v.Type().FriendlyName())))
			} else {
				*config, _ = goValue(v).(map[string]any)
			}
		}
	}
	return decoded
}

// chosenConfig is a config attribute with its conditionals resolved to the
// branch chosen: each branch is one plugin's config, and evaluating the
// conditional whole would unify the branches' types, turning a boolean or a
// number of one into a string when their keys differ. A condition that does
// not evaluate to a known bool leaves the expression to report it.
func (d *decoder) chosenConfig(a *hcl.Attribute) *hcl.Attribute {
	out := *a
	for {
		cond, ok := out.Expr.(*hclsyntax.ConditionalExpr)
		if !ok {
			return &out
		}
		v, diags := cond.Condition.Value(d.ctx)
		if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.IsMarked() || v.Type() != cty.Bool {
			return &out
		}
		if out.Expr = cond.FalseResult; v.True() {
			out.Expr = cond.TrueResult
		}
	}
}

// misplaced reports attributes of the other block type, saying where each belongs.
func (d *decoder) misplaced(c *hcl.BodyContent, belongs map[string]string) {
	for _, name := range []string{"priority", "kind", "setup", "timeout", "fallback"} {
		if a, ok := c.Attributes[name]; ok && belongs[name] != "" {
			d.add(Error(CheckSchema, a.NameRange, fmt.Sprintf("Unsupported argument %q", name), belongs[name]))
		}
	}
}

func (d *decoder) decodeSource(b *hcl.Block) {
	s := &Source{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, sourceSchema)
	decoded := d.pluginCommon(c, &s.Plugin, &s.SHA256, &s.Config)
	if d.int(c.Attributes, "priority", &s.Priority) {
		d.atLeast(c.Attributes, "priority", s.Priority, 0)
	}
	d.recordKind(c.Attributes, &s.Kind)
	d.str(c.Attributes, "setup", &s.Setup)
	d.misplaced(c, map[string]string{
		"timeout":  "timeout belongs to agent blocks; sources get deadlines from the loop's ttl.",
		"fallback": "fallback belongs to agent blocks; a source that cannot be served says so with plugin = \"\" and setup.",
	})
	if decoded && !s.Configured() && s.Setup == "" {
		d.add(Warning(CheckMissingDescription, c.Attributes["plugin"].Expr.Range(), "Not configured, and no setup",
			fmt.Sprintf("No plugin serves source %q here; add setup = \"…\" saying how to configure it (which variables to set), so questions that need it say so.", s.Name)))
	}
	if d.define("source", s.Name, b.DefRange) {
		d.rs.Sources = append(d.rs.Sources, s)
	}
}

func (d *decoder) decodeAgent(b *hcl.Block) {
	a := &Agent{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, agentSchema)
	if d.pluginCommon(c, &a.Plugin, &a.SHA256, &a.Config) && a.Plugin == "" {
		d.add(Error(CheckInvalidValue, c.Attributes["plugin"].Expr.Range(), `Invalid "plugin"`,
			`An agent needs a plugin; "builtin:template" answers offline.`))
	}
	if d.duration(c.Attributes, "timeout", &a.Timeout) && a.Timeout <= 0 {
		d.add(Error(CheckOutOfRange, c.Attributes["timeout"].Expr.Range(), `"timeout" out of range`,
			fmt.Sprintf("timeout must be positive, got %s.", a.Timeout)))
	}
	// A fallback that is the plugin itself could not answer for it: the
	// default rules say fallback = "builtin:template" whichever plugin the
	// environment chose.
	if d.str(c.Attributes, "fallback", &a.Fallback) && a.Fallback == a.Plugin {
		a.Fallback = ""
	}
	d.misplaced(c, map[string]string{
		"priority": "priority belongs to source and retrieve blocks.",
		"kind":     "kind belongs to source blocks: the record kind the source asks its plugin for.",
		"setup":    "setup belongs to source blocks: how to configure a source that has no plugin.",
	})
	if d.define("agent", a.Name, b.DefRange) {
		d.rs.Agents = append(d.rs.Agents, a)
	}
}

// recordKind decodes a kind attribute: a record kind, a lower-case word.
func (d *decoder) recordKind(attrs hcl.Attributes, dst *string) {
	if d.str(attrs, "kind", dst) && !recordKind().MatchString(*dst) {
		d.add(Error(CheckInvalidValue, attrs["kind"].Expr.Range(), `Invalid "kind"`,
			fmt.Sprintf("A record kind is a lower-case word such as \"issue\" or \"commit\", got %q.", *dst)))
	}
}
