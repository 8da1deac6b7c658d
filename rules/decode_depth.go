package rules

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
)

func (d *decoder) decodeProfile(b *hcl.Block) {
	if !d.single(&d.profileAt, b) {
		return
	}
	p := &Profile{Range: b.DefRange}
	c := d.content(b.Body, profileSchema)
	d.condition(c.Attributes, "deepen", cond.ProfileEnv{}, &p.Deepen)
	d.condition(c.Attributes, "ease", cond.ProfileEnv{}, &p.Ease)
	d.rs.Profile = p
}

func (d *decoder) decodeDepth(b *hcl.Block) {
	dp := &Depth{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, depthSchema)
	if d.int(c.Attributes, "level", &dp.Level) {
		dp.LevelAt = c.Attributes["level"].Expr.Range()
		d.atLeast(c.Attributes, "level", dp.Level, 1)
	}
	d.str(c.Attributes, "description", &dp.Description)
	d.condition(c.Attributes, "when", cond.ProfileEnv{}, &dp.When)
	for _, f := range []struct {
		name string
		dst  *int
	}{{"max_passes", &dp.MaxPasses}, {"max_records", &dp.MaxRecords}} {
		if d.int(c.Attributes, f.name, f.dst) {
			d.atLeast(c.Attributes, f.name, *f.dst, 1)
		}
	}
	if d.duration(c.Attributes, "ttl", &dp.TTL) && dp.TTL <= 0 {
		d.add(Error(CheckOutOfRange, c.Attributes["ttl"].Expr.Range(), `"ttl" out of range`,
			fmt.Sprintf("ttl must be positive, got %s.", dp.TTL)))
	}
	d.ceilings = append(d.ceilings, depthCeiling{depth: dp, attrs: c.Attributes})
	if d.define("depth", dp.Name, b.DefRange) && dp.Level >= 1 {
		d.rs.Depths = append(d.rs.Depths, dp)
	}
}

// depthCeiling is a depth block's attributes, kept to check its budget
// against the loop block once every file is decoded.
type depthCeiling struct {
	depth *Depth
	attrs hcl.Attributes
}

// compileDepths orders the depth levels, reports a level defined twice,
// warns of a budget above the loop block's (the loop is every level's
// ceiling, so the level runs with the loop's) and fills the budgets a level leaves unset with the loop's.
func (d *decoder) compileDepths() {
	rs := d.rs
	slices.SortStableFunc(rs.Depths, func(a, b *Depth) int { return cmp.Compare(a.Level, b.Level) })
	for i := 1; i < len(rs.Depths); i++ {
		if prev, dp := rs.Depths[i-1], rs.Depths[i]; dp.Level == prev.Level {
			d.add(Error(CheckDuplicateName, dp.LevelAt, fmt.Sprintf("Duplicate depth level %d", dp.Level),
				fmt.Sprintf("Depth %q has the level of depth %q (%s); each level is one depth.", dp.Name, prev.Name, prev.Range)))
		}
	}
	rs.Depths = slices.CompactFunc(rs.Depths, func(a, b *Depth) bool { return a.Level == b.Level })
	l := rs.Loop
	for _, c := range d.ceilings {
		dp := c.depth
		for _, f := range []struct {
			name  string
			above bool
			limit string
		}{
			{"max_passes", dp.MaxPasses > l.MaxPasses, fmt.Sprint(l.MaxPasses)},
			{"ttl", dp.TTL > l.TTL, l.TTL.String()},
			{"max_records", dp.MaxRecords > l.MaxRecords, fmt.Sprint(l.MaxRecords)},
		} {
			if a := c.attrs[f.name]; a != nil && f.above {
				d.add(Warning(CheckOutOfRange, a.Expr.Range(), fmt.Sprintf("%q above the loop's", f.name),
					fmt.Sprintf("Depth %q: the loop block's %s (%s) is the ceiling of every depth level; the level runs with it.", dp.Name, f.name, f.limit)))
			}
		}
		dp.MaxPasses = min(cmp.Or(dp.MaxPasses, l.MaxPasses), l.MaxPasses)
		dp.MaxRecords = min(cmp.Or(dp.MaxRecords, l.MaxRecords), l.MaxRecords)
		dp.TTL = min(cmp.Or(dp.TTL, l.TTL), l.TTL)
	}
	d.ceilings = nil
}
