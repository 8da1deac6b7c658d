package ask

import (
	"maps"
	"slices"

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
	if p := res.Plan; p != nil {
		t.Intents = slices.Clone(p.Reasoning.Intents)
		if len(p.Reasoning.Entities) > 0 {
			t.Entities = make(map[string][]string, len(p.Reasoning.Entities))
			for _, k := range slices.Sorted(maps.Keys(p.Reasoning.Entities)) {
				for _, v := range p.Reasoning.Entities[k] {
					t.Entities[k] = append(t.Entities[k], red.String(v))
				}
			}
		}
		if in := p.Interpretation; in != nil && in.Dates != nil {
			t.Since, t.Until = in.Dates.Since, in.Dates.Until
		}
	}
	if a := res.Ambiguity; a != nil && res.Status == runner.ResultNeedsClarification {
		t.Asked = redact.Value(red, a)
	}
	return t
}
