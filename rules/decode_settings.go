package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

func (d *decoder) decodeSettings(b *hcl.Block) {
	if !d.single(&d.settingsAt, b) {
		return
	}
	c := d.content(b.Body, settingsSchema)
	s := &d.rs.Settings
	if d.int(c.Attributes, "version", &s.Version) && s.Version != 1 {
		d.add(Error(CheckInvalidValue, c.Attributes["version"].Expr.Range(), "Unsupported rules version",
			fmt.Sprintf("This nous reads version 1 rules, got version %d.", s.Version)))
	}
	if d.float(c.Attributes, "min_confidence", &s.MinConfidence) {
		d.fraction(c.Attributes, "min_confidence", s.MinConfidence)
	}
	if d.float(c.Attributes, "clarify_margin", &s.ClarifyMargin) {
		d.fraction(c.Attributes, "clarify_margin", s.ClarifyMargin)
	}
	if d.str(c.Attributes, "default_mode", &s.DefaultMode) {
		d.defaultMode = c.Attributes["default_mode"]
	}
	if d.str(c.Attributes, "fallback", &s.Fallback) {
		d.fallback = c.Attributes["fallback"]
	}
}

func (d *decoder) decodeLoop(b *hcl.Block) {
	if !d.single(&d.loopAt, b) {
		return
	}
	c := d.content(b.Body, loopSchema)
	l := &d.rs.Loop
	for _, f := range []struct {
		name string
		dst  *int
	}{{"max_passes", &l.MaxPasses}, {"refine_per_step", &l.RefinePerStep}, {"refine_total", &l.RefineTotal}, {"workers", &l.Workers}, {"max_records", &l.MaxRecords}} {
		if d.int(c.Attributes, f.name, f.dst) {
			d.atLeast(c.Attributes, f.name, *f.dst, 1)
		}
	}
	if d.duration(c.Attributes, "ttl", &l.TTL) && l.TTL <= 0 {
		d.add(Error(CheckOutOfRange, c.Attributes["ttl"].Expr.Range(), `"ttl" out of range`,
			fmt.Sprintf("ttl must be positive, got %s.", l.TTL)))
	}
}
