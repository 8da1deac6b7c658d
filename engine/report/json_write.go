package report

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/jsonindent"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/tier"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
)

// The JSON format is written by hand: the bytes encoding/json writes for a
// Document (its fields in order, their tags' omitempty and omitzero, nil
// slices as null, map keys sorted), without reflection, as the plan's is
// (engine.Plan.WriteJSON). The values a run rarely holds, and those of
// types outside the run's (a record field of any type), go through
// encoding/json. json_write_test.go holds it to encoding/json over every
// field.

// writable is a Document that writes its own JSON; a value that
// encoding/json would refuse (a time it cannot spell) sets failed, and the
// Document is then encoded by reflection, for encoding/json's error.
type writable struct {
	doc    *Document
	failed bool
	// keys are the sorted keys of the last record's fields: the records of
	// one source mostly share their field names, so they are sorted once.
	keys []string
}

// WriteJSON writes the document's JSON (jsonindent.Encode uses it).
func (d *writable) WriteJSON(w *jsonindent.Writer) {
	doc := d.doc
	w.BeginObject()
	w.Key("plan")
	doc.Plan.WriteJSON(w)
	w.Key("result")
	d.result(w, doc.Result)
	w.Key("history")
	d.history(w, doc.History)
	if doc.Trace != nil {
		w.Key("trace")
		w.BeginArray()
		for i := range doc.Trace {
			d.entry(w, &doc.Trace[i])
		}
		w.EndArray()
	}
	w.EndObject()
}

func (d *writable) result(w *jsonindent.Writer, r *runner.Result) {
	if r == nil {
		w.Null()
		return
	}
	w.BeginObject()
	w.Key("execution_id")
	w.String(r.ExecutionID)
	w.Key("interaction_id")
	w.String(r.InteractionID)
	optString(w, "session_id", r.Session)
	w.Key("query")
	w.String(r.Query)
	w.Key("mode")
	w.String(r.Mode)
	w.Key("status")
	w.String(r.Status)
	w.Key("report")
	w.String(r.Report)
	if len(r.Answers) > 0 {
		w.Key("answers")
		w.BeginArray()
		for i := range r.Answers {
			d.answer(w, &r.Answers[i])
		}
		w.EndArray()
	}
	if r.Answer != nil {
		w.Key("answer")
		w.BeginObject()
		w.Key("final_report")
		w.String(r.Answer.FinalReport)
		w.Key("sources_used")
		w.Strings(r.Answer.SourcesUsed)
		w.Key("confidence_level")
		w.String(r.Answer.ConfidenceLevel)
		w.EndObject()
	}
	if r.Review != nil {
		w.Key("review")
		w.BeginObject()
		w.Key("status")
		w.String(r.Review.Status)
		w.Key("critique")
		w.String(r.Review.Critique)
		w.Key("suggestions")
		w.Strings(r.Review.Suggestions)
		w.Key("mode_compliance")
		w.String(r.Review.ModeCompliance)
		w.Key("logical_gaps")
		w.Strings(r.Review.LogicalGaps)
		w.EndObject()
	}
	if r.Clarification != nil {
		w.Key("clarification")
		w.BeginObject()
		w.Key("question")
		w.String(r.Clarification.Question)
		w.Key("options")
		w.Strings(r.Clarification.Options)
		w.EndObject()
	}
	if r.Ambiguity != nil {
		w.Key("ambiguity")
		w.Marshal(r.Ambiguity)
	}
	w.Key("steps")
	if r.Steps == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range r.Steps {
			d.step(w, &r.Steps[i])
		}
		w.EndArray()
	}
	w.Key("records")
	if r.Records == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range r.Records {
			d.record(w, &r.Records[i])
		}
		w.EndArray()
	}
	optInt(w, "records_omitted", r.Omitted)
	if len(r.Groups) > 0 {
		w.Key("tier_groups")
		w.BeginArray()
		for _, g := range r.Groups {
			group(w, g)
		}
		w.EndArray()
	}
	optStrings(w, "pending_commitments", r.Pending)
	optString(w, "error", r.Error)
	optStrings(w, "caveats", r.Caveats)
	w.EndObject()
}

func (d *writable) answer(w *jsonindent.Writer, a *runner.Answer) {
	w.BeginObject()
	w.Key("intent")
	w.String(a.Intent)
	w.Key("understood")
	w.String(a.Understood)
	optString(w, "result", a.Result)
	w.Key("status")
	w.String(a.Status)
	if a.Counting {
		w.Key("counting")
		w.Bool(true)
	}
	w.Key("count")
	w.Int(a.Count)
	w.Key("authors")
	w.Int(a.Authors)
	optString(w, "step", a.Step)
	w.Key("records")
	w.Strings(a.Records)
	w.Key("steps")
	w.Strings(a.Steps)
	optString(w, "outside", a.Outside)
	d.optTime(w, "asked_since", a.AskedSince)
	d.optTime(w, "asked_until", a.AskedUntil)
	if n := a.Nearest; n != nil {
		w.Key("nearest")
		w.BeginObject()
		w.Key("id")
		w.String(n.ID)
		w.Key("short_id")
		w.String(n.ShortID)
		optString(w, "title", n.Title)
		d.optTime(w, "time", n.Time)
		w.EndObject()
	}
	optString(w, "report", a.Report)
	optString(w, "confidence", a.Confidence)
	optStrings(w, "sources_used", a.SourcesUsed)
	w.EndObject()
}

func (d *writable) step(w *jsonindent.Writer, s *runner.StepResult) {
	w.BeginObject()
	w.Key("id")
	w.String(s.ID)
	w.Key("description")
	w.String(s.Description)
	optString(w, "intent", s.Intent)
	optString(w, "action", s.Action)
	optString(w, "role", s.Role)
	w.Key("status")
	w.String(string(s.Status))
	w.Key("records")
	w.Int(s.Records)
	w.Key("attempts")
	w.Int(s.Attempts)
	optString(w, "output", s.Output)
	optString(w, "error", s.Error)
	optString(w, "partial", s.Partial)
	optString(w, "outside", s.Outside)
	d.optTime(w, "asked_since", s.AskedSince)
	d.optTime(w, "asked_until", s.AskedUntil)
	w.EndObject()
}

func (d *writable) record(w *jsonindent.Writer, r *sdk.Record) {
	w.BeginObject()
	w.Key("id")
	w.String(r.ID)
	w.Key("source")
	w.String(r.Source)
	w.Key("kind")
	w.String(r.Kind)
	optString(w, "title", r.Title)
	optString(w, "body", r.Body)
	optString(w, "url", r.URL)
	optString(w, "author", r.Author)
	d.optTime(w, "time", r.Time)
	optInt(w, "tier", r.Tier)
	if len(r.Fields) > 0 {
		w.Key("fields")
		d.fields(w, r.Fields)
	}
	w.EndObject()
}

func group(w *jsonindent.Writer, g tier.Group) {
	w.BeginObject()
	w.Key("tier")
	w.Int(g.Tier)
	w.Key("records")
	w.Strings(g.Records)
	w.EndObject()
}

func (d *writable) history(w *jsonindent.Writer, h *history.History) {
	if h == nil {
		w.Null()
		return
	}
	w.BeginObject()
	w.Key("execution_id")
	w.String(h.ExecutionID)
	w.Key("task_input")
	w.String(h.TaskInput)
	w.Key("configuration")
	c := &h.Configuration
	w.BeginObject()
	w.Key("mode")
	w.String(c.Mode)
	w.Key("max_passes")
	w.Int(c.MaxPasses)
	w.Key("ttl")
	w.String(c.TTL)
	w.Key("refine_per_step")
	w.Int(c.RefinePerStep)
	w.Key("refine_total")
	w.Int(c.RefineTotal)
	w.Key("workers")
	w.Int(c.Workers)
	optInt(w, "max_records", c.MaxRecords)
	if c.Profile != nil {
		w.Key("task_profile")
		w.Marshal(c.Profile)
	}
	w.EndObject()
	if h.PlanValidation != nil {
		w.Key("plan_validation")
		w.Marshal(h.PlanValidation)
	}
	w.Key("passes")
	if h.Passes == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range h.Passes {
			d.pass(w, &h.Passes[i])
		}
		w.EndArray()
	}
	w.Key("termination")
	w.String(h.Termination)
	w.Key("final_result")
	f := &h.FinalResult
	w.BeginObject()
	w.Key("status")
	w.String(f.Status)
	w.Key("report")
	w.String(f.Report)
	optString(w, "confidence", f.Confidence)
	optStrings(w, "sources_used", f.Sources)
	optString(w, "error", f.Error)
	if len(f.Queries) > 0 {
		w.Key("queries")
		w.Marshal(f.Queries)
	}
	w.EndObject()
	w.Key("overall_statistics")
	s := &h.Statistics
	w.BeginObject()
	w.Key("passes")
	w.Int(s.Passes)
	w.Key("step_runs")
	w.Int(s.StepRuns)
	w.Key("steps_failed")
	w.Int(s.StepsFailed)
	w.Key("refinements")
	w.Int(s.Refinements)
	w.Key("agent_calls")
	w.Int(s.AgentCalls)
	w.Key("records")
	w.Int(s.Records)
	w.Key("prompt_tokens")
	w.Int(s.PromptTokens)
	w.Key("completion_tokens")
	w.Int(s.CompletionTokens)
	w.Key("duration_ms")
	int64Value(w, s.DurationMS)
	w.EndObject()
	w.Key("started_at")
	d.time(w, h.StartedAt)
	w.Key("ended_at")
	d.time(w, h.EndedAt)
	w.EndObject()
}

func (d *writable) pass(w *jsonindent.Writer, p *history.Pass) {
	w.BeginObject()
	w.Key("number")
	w.Int(p.Number)
	optString(w, "depth", p.Depth)
	if c := p.DepthChange; c != nil {
		w.Key("depth_change")
		w.BeginObject()
		w.Key("from")
		w.String(c.From)
		w.Key("to")
		w.String(c.To)
		w.Key("level")
		w.Int(c.Level)
		w.Key("max_passes")
		w.Int(c.MaxPasses)
		w.Key("ttl")
		w.String(c.TTL)
		w.Key("max_records")
		w.Int(c.MaxRecords)
		w.Key("reason")
		w.String(c.Reason)
		w.EndObject()
	}
	w.Key("steps")
	if p.Steps == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range p.Steps {
			d.stepRun(w, &p.Steps[i])
		}
		w.EndArray()
	}
	w.Key("validation")
	v := &p.Validation
	w.BeginObject()
	w.Key("findings")
	if v.Findings == nil {
		w.Null()
	} else {
		w.BeginArray()
		for _, f := range v.Findings {
			w.BeginObject()
			w.Key("check")
			w.String(f.Check)
			w.Key("step")
			w.String(f.Step)
			w.Key("severity")
			w.String(f.Severity)
			optString(w, "message", f.Message)
			optString(w, "on_fail", f.OnFail)
			w.EndObject()
		}
		w.EndArray()
	}
	w.Key("passed")
	w.Int(v.Passed)
	w.Key("warnings")
	w.Int(v.Warnings)
	w.Key("failed")
	w.Int(v.Failed)
	w.EndObject()
	w.Key("convergence")
	c := &p.Convergence
	w.BeginObject()
	w.Key("converged")
	w.Bool(c.Converged)
	w.Key("reason")
	w.String(c.Reason)
	w.Key("completeness")
	w.Float(c.Completeness)
	w.Key("completed")
	w.Strings(c.Completed)
	w.Key("need_refinement")
	w.Strings(c.NeedRefine)
	w.Key("failed")
	w.Strings(c.Failed)
	w.Key("pending")
	w.Strings(c.Pending)
	w.EndObject()
	w.Key("refinements")
	if p.Refinements == nil {
		w.Null()
	} else {
		w.BeginArray()
		for i := range p.Refinements {
			refinement(w, &p.Refinements[i])
		}
		w.EndArray()
	}
	w.Key("started_at")
	d.time(w, p.StartedAt)
	w.Key("ended_at")
	d.time(w, p.EndedAt)
	w.EndObject()
}

func (d *writable) stepRun(w *jsonindent.Writer, s *history.StepRun) {
	w.BeginObject()
	w.Key("id")
	w.String(s.ID)
	optString(w, "intent", s.Intent)
	optString(w, "name", s.Name)
	optString(w, "action", s.Action)
	optString(w, "role", s.Role)
	w.Key("status")
	w.String(string(s.Status))
	w.Key("attempt")
	w.Int(s.Attempt)
	if len(s.Filters) > 0 {
		w.Key("filters")
		w.StringsMap(s.Filters)
	}
	w.Key("records")
	w.Int(s.Records)
	optInt(w, "dropped", s.Dropped)
	optInt(w, "flagged", s.Flagged)
	optString(w, "verdict", s.Verdict)
	optString(w, "output", s.Output)
	optString(w, "error", s.Error)
	optString(w, "partial", s.Partial)
	optInt(w, "agent_calls", s.AgentCalls)
	w.Key("started_at")
	d.time(w, s.StartedAt)
	w.Key("ended_at")
	d.time(w, s.EndedAt)
	w.Key("duration_ms")
	int64Value(w, s.DurationMS)
	w.EndObject()
}

func refinement(w *jsonindent.Writer, r *history.Refinement) {
	w.BeginObject()
	w.Key("op")
	w.String(r.Op)
	w.Key("target_step_id")
	w.String(r.Step)
	optString(w, "new_step_id", r.NewStep)
	optStrings(w, "drop_filters", r.DropFilters)
	if len(r.SetFilters) > 0 {
		w.Key("set_filters")
		w.StringsMap(r.SetFilters)
	}
	optInt(w, "limit", r.Limit)
	optString(w, "nearest", r.Nearest)
	optString(w, "new_description", r.Description)
	w.Key("justification")
	w.String(r.Justification)
	w.Key("applied")
	w.Bool(r.Applied)
	optString(w, "refused", r.Refused)
	w.EndObject()
}

func (d *writable) entry(w *jsonindent.Writer, e *trace.Entry) {
	w.BeginObject()
	w.Key("entry_id")
	w.String(e.ID)
	optString(w, "interaction_id", e.Interaction)
	w.Key("stage")
	w.String(string(e.Stage))
	w.Key("thought")
	w.String(e.Thought)
	optString(w, "action", e.Action)
	if len(e.Parameters) > 0 {
		w.Key("parameters")
		// Params.MarshalJSON: an object, keys sorted, each value as
		// encoding/json writes it.
		ps := slices.SortedFunc(slices.Values(e.Parameters), func(a, b trace.Param) int { return strings.Compare(a.Key, b.Key) })
		w.BeginObject()
		for _, p := range ps {
			w.Key(p.Key)
			if f, ok := p.Value.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) || !anyValue(w, p.Value) {
				// encoding/json reports a value's error wrapped in the
				// MarshalJSON call's: leave the document to it.
				d.failed = true
			}
		}
		w.EndObject()
	}
	optStrings(w, "evidence", e.Evidence)
	w.Key("outcome")
	w.String(string(e.Outcome))
	optString(w, "error", e.Error)
	optStrings(w, "commitments", e.Commitments)
	optStrings(w, "fulfills", e.Fulfills)
	if len(e.Attachments) > 0 {
		w.Key("attachments")
		w.BeginArray()
		for _, m := range e.Attachments {
			anyMap(w, m)
		}
		w.EndArray()
	}
	optStrings(w, "corrections", e.Corrections)
	w.Key("timestamp")
	d.time(w, e.Timestamp)
	w.EndObject()
}

// time writes t as time.Time.MarshalJSON does; a time it refuses fails
// the document.
func (d *writable) time(w *jsonindent.Writer, t time.Time) {
	b, err := t.MarshalJSON()
	if err != nil || len(b) < 2 {
		d.failed = true
		w.Null()
		return
	}
	w.String(string(b[1 : len(b)-1])) // RFC 3339: nothing to escape
}

// optTime writes key and t unless t is zero (omitzero).
func (d *writable) optTime(w *jsonindent.Writer, key string, t time.Time) {
	if !t.IsZero() {
		w.Key(key)
		d.time(w, t)
	}
}

// optString writes key and s unless s is empty (omitempty).
func optString(w *jsonindent.Writer, key, s string) {
	if s != "" {
		w.Key(key)
		w.String(s)
	}
}

// optStrings writes key and ss unless ss is empty (omitempty).
func optStrings(w *jsonindent.Writer, key string, ss []string) {
	if len(ss) > 0 {
		w.Key(key)
		w.Strings(ss)
	}
}

// optInt writes key and n unless n is 0 (omitempty).
func optInt(w *jsonindent.Writer, key string, n int) {
	if n != 0 {
		w.Key(key)
		w.Int(n)
	}
}

func int64Value(w *jsonindent.Writer, n int64) {
	if int64(int(n)) != n {
		w.Marshal(n) // beyond int on a 32-bit platform
		return
	}
	w.Int(int(n))
}

// anyValue writes v as encoding/json writes an interface value: the types
// a record field or a trace parameter holds by hand, others through
// encoding/json (and then it reports false).
func anyValue(w *jsonindent.Writer, v any) (byHand bool) {
	switch v := v.(type) {
	case nil:
		w.Null()
	case string:
		w.String(v)
	case bool:
		w.Bool(v)
	case int:
		w.Int(v)
	case int64:
		int64Value(w, v)
	case float64:
		w.Float(v)
	case []string:
		w.Strings(v)
	default:
		w.Marshal(v)
		return false
	}
	return true
}

// anyMap writes m as encoding/json writes a map[string]any: keys sorted,
// null when m is nil.
func anyMap(w *jsonindent.Writer, m map[string]any) {
	if m == nil {
		w.Null()
		return
	}
	w.BeginObject()
	for _, k := range sortedKeys(m) {
		w.Key(k)
		anyValue(w, m[k])
	}
	w.EndObject()
}

// fields writes a record's fields as anyMap does, reusing the last
// record's sorted keys when m has the same names.
func (d *writable) fields(w *jsonindent.Writer, m map[string]any) {
	if !sameKeys(d.keys, m) {
		d.keys = sortedKeys(m)
	}
	w.BeginObject()
	for _, k := range d.keys {
		w.Key(k)
		anyValue(w, m[k])
	}
	w.EndObject()
}

// sameKeys reports whether keys are exactly the keys of m (keys has no
// duplicates, being a map's keys).
func sameKeys(keys []string, m map[string]any) bool {
	if len(keys) != len(m) {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
