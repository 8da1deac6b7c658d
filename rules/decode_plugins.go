package rules

import (
	"fmt"
	"regexp"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

var sha256Hex = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// pluginCommon decodes the attributes shared by source and agent blocks.
func (d *decoder) pluginCommon(c *hcl.BodyContent, plugin, sum *string, config *map[string]any) {
	d.str(c.Attributes, "plugin", plugin)
	if d.str(c.Attributes, "sha256", sum) && !sha256Hex.MatchString(*sum) {
		d.add(Error(CheckInvalidValue, c.Attributes["sha256"].Expr.Range(), `Invalid "sha256"`,
			fmt.Sprintf("A SHA-256 checksum is 64 hexadecimal digits, got %q.", *sum)))
	}
	if a, ok := c.Attributes["config"]; ok {
		if v, ok := d.value(a, cty.DynamicPseudoType); ok {
			if !v.Type().IsObjectType() && !v.Type().IsMapType() {
				d.add(Error(CheckType, a.Expr.Range(), `Invalid value for "config"`,
					fmt.Sprintf("An object is required here, got a %s.", v.Type().FriendlyName())))
			} else {
				*config, _ = goValue(v).(map[string]any)
			}
		}
	}
}

func (d *decoder) decodeSource(b *hcl.Block) {
	s := &Source{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, pluginSchema)
	d.pluginCommon(c, &s.Plugin, &s.SHA256, &s.Config)
	if d.int(c.Attributes, "priority", &s.Priority) {
		d.atLeast(c.Attributes, "priority", s.Priority, 0)
	}
	if a, ok := c.Attributes["timeout"]; ok {
		d.add(Error(CheckSchema, a.NameRange, `Unsupported argument "timeout"`, "timeout belongs to agent blocks; sources get deadlines from the loop's ttl."))
	}
	if d.define("source", s.Name, b.DefRange) {
		d.rs.Sources = append(d.rs.Sources, s)
	}
}

func (d *decoder) decodeAgent(b *hcl.Block) {
	a := &Agent{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, pluginSchema)
	d.pluginCommon(c, &a.Plugin, &a.SHA256, &a.Config)
	if d.duration(c.Attributes, "timeout", &a.Timeout) && a.Timeout <= 0 {
		d.add(Error(CheckOutOfRange, c.Attributes["timeout"].Expr.Range(), `"timeout" out of range`,
			fmt.Sprintf("timeout must be positive, got %s.", a.Timeout)))
	}
	if p, ok := c.Attributes["priority"]; ok {
		d.add(Error(CheckSchema, p.NameRange, `Unsupported argument "priority"`, "priority belongs to source and retrieve blocks."))
	}
	if d.define("agent", a.Name, b.DefRange) {
		d.rs.Agents = append(d.rs.Agents, a)
	}
}
