package engine

import (
	"strings"

	"github.com/nous-dev/nous/engine/jsonindent"
)

// The plan's JSON is written by hand: the bytes encoding/json writes for
// it (its fields in order, their tags' omitempty, nil slices and maps as
// null), without reflection. plan_json_write_test.go holds it to
// encoding/json over every field.

// WriteJSON writes the plan's JSON, as encoding/json writes it, to w
// (jsonindent.Encode uses it).
func (p *Plan) WriteJSON(w *jsonindent.Writer) {
	if p == nil {
		w.Null()
		return
	}
	w.BeginObject()
	if p.Query != "" {
		w.Key("query")
		w.String(p.Query)
	}
	w.Key("mode")
	w.String(p.Mode)
	w.Key("reasoning")
	p.Reasoning.writeJSON(w)
	w.Key("retrieval")
	p.Retrieval.writeJSON(w)
	w.Key("diagnostics")
	writeDiagnostics(w, p.Diagnostics)
	if p.Interpretation != nil {
		w.Key("interpretation")
		w.Marshal(p.Interpretation) // not in a planner's plans: not worth writing by hand
	}
	if len(p.Ambiguities) > 0 {
		w.Key("ambiguities")
		writeAmbiguities(w, p.Ambiguities)
	}
	if p.Profile != nil {
		w.Key("task_profile")
		p.Profile.writeJSON(w)
	}
	if p.Validation != nil {
		w.Key("plan_validation")
		p.Validation.writeJSON(w)
	}
	w.EndObject()
}

func (r *Reasoning) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	w.Key("intents")
	if r.Intents == nil {
		w.Null()
	} else {
		w.BeginArray()
		for _, in := range r.Intents {
			w.BeginObject()
			w.Key("type")
			w.String(in.Type)
			w.Key("confidence")
			w.Float(in.Confidence)
			w.EndObject()
		}
		w.EndArray()
	}
	w.Key("entities")
	w.StringsMap(r.Entities)
	w.Key("hypotheses")
	if r.Hypotheses == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range r.Hypotheses {
			r.Hypotheses[i].writeJSON(w)
		}
		w.EndArray()
	}
	w.Key("dependency_map")
	r.DependencyMap.writeJSON(w)
	w.EndObject()
}

func (h *Hypothesis) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	w.Key("id")
	w.String(h.ID)
	w.Key("description")
	w.String(h.Description)
	w.Key("dependencies")
	w.Strings(h.Dependencies)
	w.Key("intent")
	w.String(h.Intent)
	w.Key("intent_index")
	w.Int(h.IntentIndex)
	w.Key("name")
	w.String(h.Name)
	optionalString(w, "action", string(h.Action))
	optionalString(w, "agent", h.Agent)
	optionalString(w, "role", string(h.Role))
	w.EndObject()
}

func (r *Retrieval) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	w.Key("plans")
	if r.Plans == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range r.Plans {
			r.Plans[i].writeJSON(w)
		}
		w.EndArray()
	}
	w.Key("queries")
	if r.Queries == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range r.Queries {
			r.Queries[i].writeJSON(w)
		}
		w.EndArray()
	}
	w.EndObject()
}

func (r *RetrievalPlan) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	w.Key("id")
	w.String(r.ID)
	w.Key("description")
	w.String(r.Description)
	w.Key("sources")
	w.Strings(r.Sources)
	optionalString(w, "kind", r.Kind)
	w.Key("filters")
	r.Filters.writeJSON(w)
	w.Key("priority")
	w.Int(r.Priority)
	w.Key("intent")
	w.String(r.Intent)
	optionalString(w, "hypothesis", r.Hypothesis)
	if r.Limit != 0 {
		w.Key("limit")
		w.Int(r.Limit)
	}
	if r.Optional {
		w.Key("optional")
		w.Bool(true)
	}
	if r.Rank {
		w.Key("rank")
		w.Bool(true)
	}
	if len(r.RankIgnore) > 0 {
		w.Key("rank_ignore")
		w.Strings(r.RankIgnore)
	}
	if len(r.RankWeights) > 0 {
		w.Key("rank_weights")
		w.FloatMap(r.RankWeights)
	}
	w.EndObject()
}

func (q *Query) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	w.Key("id")
	w.String(q.ID)
	w.Key("query_string")
	w.String(q.QueryString)
	w.Key("source")
	w.String(q.Source)
	w.Key("filters")
	q.Filters.writeJSON(w)
	if r := q.Results; r != nil {
		w.Key("results")
		w.BeginObject()
		w.Key("status")
		w.String(r.Status)
		w.Key("records")
		w.Int(r.Records)
		optionalString(w, "error", r.Error)
		optionalString(w, "nearest", r.Nearest)
		w.EndObject()
	}
	w.EndObject()
}

func writeDiagnostics(w *jsonindent.Writer, ds []Diagnostic) {
	if ds == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, d := range ds {
		w.BeginObject()
		w.Key("severity")
		w.String(string(d.Severity))
		w.Key("code")
		w.String(d.Code)
		w.Key("message")
		w.String(d.Message)
		w.EndObject()
	}
	w.EndArray()
}

func writeAmbiguities(w *jsonindent.Writer, as []Ambiguity) {
	w.BeginArray()
	for _, a := range as {
		w.BeginObject()
		w.Key("type")
		w.String(a.Type)
		optionalString(w, "entity", a.Entity)
		optionalString(w, "value", a.Value)
		w.Key("message")
		w.String(a.Message)
		if len(a.Candidates) > 0 {
			w.Key("candidates")
			w.Strings(a.Candidates)
		}
		w.Key("blocking")
		w.Bool(a.Blocking)
		w.EndObject()
	}
	w.EndArray()
}

func (p *Profile) writeJSON(w *jsonindent.Writer) {
	d := &p.Dimensions
	w.BeginObject()
	w.Key("dimensions")
	w.BeginObject()
	for _, f := range [...]struct {
		key string
		n   int
	}{
		{"words", d.Words}, {"intents", d.Intents}, {"entities", d.Entities}, {"constraints", d.Constraints},
		{"hypotheses", d.Hypotheses}, {"agent_steps", d.AgentSteps}, {"retrievals", d.Retrievals}, {"sources", d.Sources},
	} {
		w.Key(f.key)
		w.Int(f.n)
	}
	w.EndObject()
	w.Key("depth")
	if strings.ContainsAny(p.Depth.Name, "<>&") {
		w.Marshal(p.Depth) // its MarshalJSON escapes HTML (json.Marshal)
	} else {
		w.BeginObject()
		w.Key("level")
		w.Int(p.Depth.Level)
		w.Key("name")
		w.String(p.Depth.Name)
		w.Key("max_passes")
		w.Int(p.Depth.MaxPasses)
		w.Key("ttl")
		w.String(p.Depth.TTL.String())
		w.Key("max_records")
		w.Int(p.Depth.MaxRecords)
		w.EndObject()
	}
	w.Key("reason")
	w.String(p.Reason)
	w.EndObject()
}

func (v *PlanValidation) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	if len(v.Findings) > 0 {
		w.Key("findings")
		w.BeginArray()
		for _, f := range v.Findings {
			w.BeginObject()
			w.Key("severity")
			w.String(string(f.Severity))
			w.Key("code")
			w.String(f.Code)
			optionalString(w, "target", f.Target)
			w.Key("message")
			w.String(f.Message)
			w.EndObject()
		}
		w.EndArray()
	}
	if len(v.Refinements) > 0 {
		w.Key("refinements")
		w.BeginArray()
		for _, r := range v.Refinements {
			w.BeginObject()
			w.Key("op")
			w.String(r.Op)
			w.Key("target")
			w.String(r.Target)
			optionalString(w, "step", r.Step)
			optionalString(w, "from", r.From)
			optionalString(w, "to", r.To)
			w.Key("justification")
			w.String(r.Justification)
			if r.Plan != nil {
				w.Key("plan")
				r.Plan.writeJSON(w)
			}
			w.EndObject()
		}
		w.EndArray()
	}
	if len(v.Caveats) > 0 {
		w.Key("caveats")
		w.Strings(v.Caveats)
	}
	if len(v.Unserved) > 0 {
		w.Key("unserved")
		w.StringMap(v.Unserved)
	}
	w.EndObject()
}

// optionalString writes a string field tagged omitempty.
func optionalString(w *jsonindent.Writer, key, s string) {
	if s != "" {
		w.Key(key)
		w.String(s)
	}
}
