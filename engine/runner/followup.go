package runner

import (
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine"
)

// followUpLine says what a follow-up question took from the earlier turn
// of its session, for the Understood block: "Follow-up of “what changed
// last week?” (session t1, turn 1): took intent query_commits; dates
// 2026-11-09..2026-11-15 (the week before, from 2026-11-16 – 2026-11-22)".
// It is "" for a question that is not a follow-up.
func followUpLine(res *Result) string {
	if res.Plan == nil || res.Plan.Interpretation == nil || res.Plan.Interpretation.FollowUp == nil {
		return ""
	}
	fu := res.Plan.Interpretation.FollowUp
	var b strings.Builder
	b.WriteString("Follow-up of “" + clip(oneLine(fu.Query), 100) + "” (session " + fu.Session + ", turn " + strconv.Itoa(fu.Turn) + "): ")
	if len(fu.Carried) == 0 {
		b.WriteString("nothing carried over, the question names its own intents and constraints")
		return b.String()
	}
	b.WriteString("took ")
	for i, c := range fu.Carried {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(carried(c))
	}
	return b.String()
}

// carried is one carried constraint in words.
func carried(c engine.Constraint) string {
	if c.Value == "" { // a move with nothing to move
		return c.Phrase + ": not applied, " + c.Reason
	}
	s := c.Key + " " + c.Value
	switch {
	case c.Phrase != "" && c.Reason != "":
		s += " (" + c.Phrase + ", " + c.Reason + ")"
	case c.Phrase != "":
		s += " (" + c.Phrase + ")"
	}
	return s
}
