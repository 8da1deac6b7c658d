package runner

import (
	"slices"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/sdk"
)

// output is what a step produced.
type output struct {
	Records []sdk.Record // the records held: at most loop.max_records
	Omitted tally        // counts of the records beyond them
	Text    string       // agent answer or transform summary
	Draft   string       // analyst draft
	Review  *sdk.CriticOutput
	Verdict string
	Answer  *sdk.WriterOutput
	Clarify *sdk.ClarificationOutput
	Dropped int // records the mode dropped
	Flagged int // records the mode flagged
	Calls   int // agent calls made
	Notes   []string
	Search  []string // analyst: queries for missing evidence
	Ranked  *ranking // retrieve: what its ranked retrievals judged

	// retrieve: the sources that answered and those that failed
	Answered []string
	Failed   []sourceFailure
}

// rank merges a ranked retrieval's judgement into o.
func (o *output) rank(rk ranking) {
	if o.Ranked == nil {
		o.Ranked = &ranking{}
	}
	o.Ranked.add(rk)
}

// sourceFailure is a source call of a retrieval that failed. Received
// counts the records its stream delivered before it ended in the error:
// those are kept, and the source counts as having answered in part.
type sourceFailure struct {
	Source   string
	Err      error
	Received int
}

// stepState is one step of the plan as the loop sees it.
type stepState struct {
	id     string
	hyp    *engine.Hypothesis // the plan's; a refinement's step gets its own
	step   *engine.Step       // what it runs (the plan's); noStep for a step the plan does not describe
	deps   []string
	plans  []int // retrieval plans run by this step
	status engine.Status
	err    error

	// refinement state
	attempts int
	drop     []string            // filter keys dropped
	set      map[string][]string // filter values set
	replace  bool                // REPLACE: only the set filters remain
	limit    int
	nearest  string            // look around the empty period: before | after
	review   *sdk.CriticOutput // critic review to revise against
	draft    string            // draft under revision
	delta    *pendingDelta     // what validation asked for
	dispute  string            // why the validator found it invalid, when it was left as it is: not converged
	origin   string            // ADD: the step this one was added for
	search   []string          // gap search: free-text queries run instead of retrieval plans
	sources  []string          // gap search: the sources asked
	searched []string          // queries already added for this step

	out       output        // written by the step's own run (see runStep)
	resStatus engine.Status // the run's verdict, taken when the step settles
	resErr    error
	// the current run's start and end, on the injected clock and in the
	// run's order of starts and ends (see history.StepRun)
	started, ended   time.Time
	startSeq, endSeq int
	entry            string // trace entry of the current run
	// trace summaries taken at launch, so prompts do not depend on how
	// parallel steps interleave
	traceSummary, corrections string

	node   int      // in the run's walk
	commit []string // its commitment, "step:ID", made once for the trace
}

// noStep is what a step the plan does not describe runs: nothing.
var noStep engine.Step

// pendingDelta is the refinement validation asked for on an invalid step.
type pendingDelta struct {
	op      string
	drop    []string
	set     map[string][]string
	limit   int
	nearest string
	because string
	review  *sdk.CriticOutput
	search  []string // gap search queries
	// description replaces the hypothesis description (the validator's
	// MODIFY); keep makes a refused delta leave the step's result as it is,
	// disputed for dispute, instead of failing the step (the validator's
	// deltas).
	description string
	keep        bool
	dispute     string
}

// role is the agent role the step runs, if any.
func (s *stepState) role() string { return string(s.step.Role) }

// action is what the step does.
func (s *stepState) action() string { return string(s.step.Action) }

// filters returns f with the step's refinement deltas applied, in order.
func (s *stepState) filters(f engine.Filters) engine.Filters {
	out := make(engine.Filters, 0, len(f)+len(s.set))
	for _, x := range f {
		if s.replace || slices.Contains(s.drop, x.Key) {
			continue
		}
		if v, ok := s.set[x.Key]; ok {
			x = engine.Filter{Key: x.Key, Values: v}
		}
		out = append(out, x)
	}
	for _, k := range sortedKeys(s.set) {
		if !slices.ContainsFunc(out, func(x engine.Filter) bool { return x.Key == k }) {
			out = append(out, engine.Filter{Key: k, Values: s.set[k]})
		}
	}
	return out
}

// refined reports whether a delta changed the step's retrieval.
func (s *stepState) refined() bool {
	return len(s.drop) > 0 || len(s.set) > 0 || s.replace || s.limit > 0
}

// view is the step as check conditions see it.
func (s *stepState) view(filters map[string][]string) cond.Step {
	v := cond.Step{
		ID: s.id, Intent: s.hyp.Intent, Name: s.hyp.Name, Action: s.action(), Agent: s.hyp.Agent,
		Role: s.role(), Status: string(s.status), Output: s.out.Text, Verdict: s.out.Verdict,
		Filters: filters, Attempts: s.attempts, Records: make([]cond.Item, len(s.out.Records)), Error: errText(s.err),
	}
	for i, r := range s.out.Records {
		v.Records[i] = cond.Item{ID: r.ID, Source: r.Source, Kind: r.Kind, Title: r.Title, Body: r.Body,
			URL: r.URL, Author: r.Author, Time: r.Time, Tier: r.Tier}
		if t, ok := r.Fields["_reasoning_metadata.type"].(string); ok {
			v.Records[i].Type = t
		}
	}
	return v
}

// commitPrefix starts a step's trace commitment: "step:ID".
const commitPrefix = "step:"

// commitment is the trace commitment the step fulfils: "step:ID".
func (s *stepState) commitment() string { return s.fulfills()[0] }

// fulfills is the step's trace commitments, made once: trace entries
// share it (capped, so an append copies it out).
func (s *stepState) fulfills() []string {
	if s.commit == nil {
		s.commit = []string{commitPrefix + s.id}
	}
	return s.commit[:1:1]
}
