package lint

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// depthLevels reports depth levels that are probably not what their author
// meant: numbers skipped, a when on the floor, a when that can never choose
// its level or always does, and a profile block with no levels to move.
func depthLevels(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	warn := func(at hcl.Range, summary, detail string) {
		diags = append(diags, rules.Warning(rules.CheckDepthLevels, at, summary, detail))
	}
	if len(rs.Depths) == 0 {
		if p := rs.Profile; p != nil {
			warn(p.Range, "Profile block without depth levels", "The profile block re-assesses the depth levels, and no depth block defines any: it has no effect.")
		}
		return diags
	}
	if floor := rs.Depths[0]; floor.When != nil {
		warn(floor.When.Range, "The floor's when is never evaluated",
			fmt.Sprintf("Depth %q is the lowest level: it is chosen when no higher level's when holds, whatever its own says.", floor.Name))
	}
	for i, d := range rs.Depths {
		if i > 0 && d.Level > rs.Depths[i-1].Level+1 {
			warn(d.LevelAt, fmt.Sprintf("Depth levels skip from %d to %d", rs.Depths[i-1].Level, d.Level),
				fmt.Sprintf("Depth %q follows level %d: re-assessment moves to the next defined level, so the numbers say more than the levels do.", d.Name, rs.Depths[i-1].Level))
		}
		if i == 0 || d.When == nil || d.When.Constant == nil {
			continue
		}
		if *d.When.Constant {
			warn(d.When.Range, fmt.Sprintf("Depth %q is always chosen", d.Name),
				fmt.Sprintf("Its when %q is always true, so no level below it is ever chosen from the task profile.", d.When.Source))
		} else {
			warn(d.When.Range, fmt.Sprintf("Depth %q is never chosen from the task profile", d.Name),
				fmt.Sprintf("Its when %q is always false: only re-assessment reaches it. Leave when out to say so.", d.When.Source))
		}
	}
	return diags
}
