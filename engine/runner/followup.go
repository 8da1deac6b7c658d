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
	where := "session " + fu.Session + ", turn " + strconv.Itoa(fu.Turn)
	if fu.Session == "" { // the earlier questions came with this one (NLWeb's prev)
		where = "earlier question " + strconv.Itoa(fu.Turn)
	}
	head := "Follow-up of “" + clip(oneLine(fu.Query), 100) + "” (" + where + "): "
	if len(fu.Carried) == 0 {
		return head + "nothing carried over, the question names its own intents and constraints"
	}
	var parts []string
	for i := 0; i < len(fu.Carried); {
		c := fu.Carried[i]
		if !plain(c) {
			parts = append(parts, carried(c))
			i++
			continue
		}
		// Values taken as they were, of one key, read as one: "paths a, b".
		values := []string{c.Value}
		for i++; i < len(fu.Carried) && plain(fu.Carried[i]) && fu.Carried[i].Key == c.Key; i++ {
			values = append(values, fu.Carried[i].Value)
		}
		key := c.Key
		if key == engine.CarriedIntent && len(values) > 1 {
			key = "intents"
		}
		parts = append(parts, key+" "+strings.Join(values, ", "))
	}
	return head + "took " + strings.Join(parts, "; ")
}

// plain reports whether c is a value taken as it was.
func plain(c engine.Constraint) bool { return c.Value != "" && c.Phrase == "" && c.Reason == "" }

// carried is a carried constraint with how it was read, in words.
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
