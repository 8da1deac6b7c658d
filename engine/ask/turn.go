package ask

import (
	"maps"
	"slices"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/sdk/redact"
)

// Turn is what a session keeps of res: the question, the report (the
// store cuts it) and what was understood — intents, entities, period —
// with secrets masked by red.
func Turn(res *runner.Result, red *redact.Redactor) session.Turn {
	t := session.Turn{Interaction: res.InteractionID, Query: red.String(res.Query), Status: res.Status, Answer: red.String(res.Report)}
	if res.History != nil {
		t.At = res.History.EndedAt
	}
	understood(&t, res.Plan, red)
	if a := res.Ambiguity; a != nil && res.Status == runner.ResultNeedsClarification {
		t.Asked = redact.Value(red, a)
	}
	return t
}

// understood records in t what plan understood of its question: intents,
// entities (masked by red) and period.
func understood(t *session.Turn, plan *engine.Plan, red *redact.Redactor) {
	if plan == nil {
		return
	}
	t.Intents = slices.Clone(plan.Reasoning.Intents)
	if len(plan.Reasoning.Entities) > 0 {
		t.Entities = make(map[string][]string, len(plan.Reasoning.Entities))
		for _, k := range slices.Sorted(maps.Keys(plan.Reasoning.Entities)) {
			for _, v := range plan.Reasoning.Entities[k] {
				t.Entities[k] = append(t.Entities[k], red.String(v))
			}
		}
	}
	if in := plan.Interpretation; in != nil && in.Dates != nil {
		t.Since, t.Until = in.Dates.Since, in.Dates.Until
	}
}
