package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/require"
)

var fixedNow = time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)

func fixedClock() time.Time { return fixedNow }

// fakeSources serves records per source from functions and records requests.
type fakeSources struct {
	mu    sync.Mutex
	fetch map[string]func(ctx context.Context, req sdk.FetchRequest) ([]sdk.Record, error)
	calls []fetchCall
	gate  *gate
}

type fetchCall struct {
	Source string
	Req    sdk.FetchRequest
}

func (f *fakeSources) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	f.mu.Lock()
	f.calls = append(f.calls, fetchCall{source, req})
	fn := f.fetch[source]
	f.mu.Unlock()
	if f.gate != nil {
		f.gate.wait()
	}
	if fn == nil {
		return sdk.Errorf(sdk.KindNotFound, "no source %q", source)
	}
	recs, err := fn(ctx, req)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeSources) requests() []fetchCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fetchCall(nil), f.calls...)
}

// gate holds callers until n have arrived (or a second has passed), which
// proves they were in flight together.
type gate struct {
	mu      sync.Mutex
	n       int
	arrived int
	open    chan struct{}
}

func newGate(n int) *gate { return &gate{n: n, open: make(chan struct{})} }

func (g *gate) wait() {
	g.mu.Lock()
	g.arrived++
	if g.arrived == g.n {
		close(g.open)
	}
	g.mu.Unlock()
	select {
	case <-g.open:
	case <-time.After(5 * time.Second):
	}
}

// fakeAgents answers roles from functions and records the requests.
type fakeAgents struct {
	mu    sync.Mutex
	roles map[string]func(req sdk.InvokeRequest) (string, error)
	calls []sdk.InvokeRequest
}

func (f *fakeAgents) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	fn := f.roles[req.Role]
	f.mu.Unlock()
	if fn == nil {
		return sdk.InvokeResponse{}, fmt.Errorf("no fake for role %s", req.Role)
	}
	out, err := fn(req)
	return sdk.InvokeResponse{Output: json.RawMessage(out), Usage: sdk.Usage{PromptTokens: 10, CompletionTokens: 5}}, err
}

func (f *fakeAgents) requests(role string) []sdk.InvokeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []sdk.InvokeRequest
	for _, c := range f.calls {
		if c.Role == role {
			out = append(out, c)
		}
	}
	return out
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// standardAgents drafts from the context, passes every review, and writes
// a report naming every record.
func standardAgents() *fakeAgents {
	return &fakeAgents{roles: map[string]func(sdk.InvokeRequest) (string, error){
		sdk.RoleAnalyst: func(req sdk.InvokeRequest) (string, error) {
			var in sdk.AnalystInput
			if err := json.Unmarshal(req.Input, &in); err != nil {
				return "", err
			}
			draft := "draft:"
			for _, r := range req.Context {
				draft += " " + r.ID
			}
			if in.Review != nil {
				draft += " (revised: " + in.Review.Critique + ")"
			}
			return mustJSON(sdk.AnalystOutput{Status: sdk.AnalystDraftReady, NewQueries: []string{}, Draft: draft, ReasoningChain: "read"}), nil
		},
		sdk.RoleCritic: func(req sdk.InvokeRequest) (string, error) {
			return mustJSON(sdk.CriticOutput{Status: sdk.VerdictPass, Critique: "fine", Suggestions: []string{}, LogicalGaps: []string{}}), nil
		},
		sdk.RoleWriter: func(req sdk.InvokeRequest) (string, error) {
			var in sdk.WriterInput
			if err := json.Unmarshal(req.Input, &in); err != nil {
				return "", err
			}
			var ids []string
			for _, r := range req.Context {
				ids = append(ids, r.ID)
			}
			return mustJSON(sdk.WriterOutput{FinalReport: "# Report\n" + in.Draft + "\nrecords: " + strings.Join(ids, ","),
				SourcesUsed: ids, ConfidenceLevel: "High"}), nil
		},
		sdk.RoleClarification: func(req sdk.InvokeRequest) (string, error) {
			return mustJSON(sdk.ClarificationOutput{Question: "Which project?", Options: []string{"a", "b"}}), nil
		},
	}}
}

const baseRules = `
nous {
  version      = 1
  default_mode = "discovery"
}
source "git" {
  plugin = "builtin:git"
}
source "forum" {
  plugin = "builtin:file"
}
agent "analyst" { plugin = "builtin:template" }
agent "critic" { plugin = "builtin:template" }
agent "writer" { plugin = "builtin:template" }
agent "clarification" { plugin = "builtin:template" }
tier "git" {
  tier = 1
  type = "official"
}
tier "forum" {
  tier = 5
  type = "social"
}
mode "strict" {
  keep     = "item.tier >= 1 && item.tier <= 2"
  on_empty = "error"
}
mode "discovery" {
  warn = "item.tier == 0 || item.tier >= 3"
}
mode "monitor" {
  compare = [1, 5]
}
prompt "writer" {
  template = "Write the report for {{.Query}} ({{.Mode}}, pass {{.Pass}}, {{len .Records}} records)."
}
`

// loadRules parses baseRules plus extra.
func loadRules(t testing.TB, extra string) *rules.Ruleset {
	t.Helper()
	rs, diags := rules.Parse("test.hcl", []byte(baseRules+extra))
	require.False(t, diags.HasErrors(), diags.Error())
	return rs
}

// stepSpec describes one hand-built plan step.
type stepSpec struct {
	id, desc, action, role string
	deps                   []string
	retrieve               []planSpec
}

type planSpec struct {
	source   string
	priority int
	filters  engine.Filters
	limit    int
}

// buildPlan assembles a plan the way the planner would.
func buildPlan(rs *rules.Ruleset, query, mode string, entities map[string][]string, specs ...stepSpec) *engine.Plan {
	p := &engine.Plan{Query: query, Mode: mode, Policy: engine.NewPlanner(rs).Policy(mode)}
	p.Reasoning.Entities = entities
	for _, s := range specs {
		h := engine.Hypothesis{ID: s.id, Description: s.desc, Dependencies: s.deps, Intent: "test", Name: s.id, Action: engine.Action(s.action)}
		if s.deps == nil {
			h.Dependencies = []string{}
		}
		action, role, agent := (&rules.Hypothesis{Name: s.id, Description: s.desc, Action: s.action, Role: s.role}).Runs()
		step := engine.Step{ID: s.id, Action: engine.Action(action), Role: engine.Role(role), Agent: agent}
		for _, ps := range s.retrieve {
			id := fmt.Sprintf("plan%d", len(p.Retrieval.Plans))
			p.Retrieval.Plans = append(p.Retrieval.Plans, engine.RetrievalPlan{ID: id, Description: s.desc, Sources: []string{ps.source},
				Filters: ps.filters, Priority: ps.priority, Hypothesis: s.id, Limit: ps.limit})
			qs := s.desc
			for _, f := range ps.filters {
				qs += " " + f.Key + ":" + strings.Join(f.Values, ",")
			}
			p.Retrieval.Queries = append(p.Retrieval.Queries, engine.Query{ID: id + "_query", QueryString: qs, Source: ps.source, Filters: ps.filters})
			step.Plans = append(step.Plans, len(p.Retrieval.Plans)-1)
		}
		p.Reasoning.Hypotheses = append(p.Reasoning.Hypotheses, h)
		p.Steps = append(p.Steps, step)
	}
	return p
}

func commits(n int) []sdk.Record {
	out := make([]sdk.Record, n)
	for i := range out {
		out[i] = sdk.Record{ID: fmt.Sprintf("c%d", i+1), Source: "git", Kind: sdk.KindCommit, Title: fmt.Sprintf("fix payments bug %d", i+1),
			Author: "alice", Time: fixedNow.Add(-time.Duration(i+1) * 24 * time.Hour)}
	}
	return out
}

// commitChain is retrieve → rank → writer on the git source with a dates filter.
func commitChain(rs *rules.Ruleset, mode string) *engine.Plan {
	return buildPlan(rs, "what changed in payments last week?", mode, map[string][]string{"dates": {"last week"}},
		stepSpec{id: "h0", desc: "Retrieve commit data from GitLab", action: "retrieve",
			retrieve: []planSpec{{source: "git", priority: 10, filters: engine.Filters{{Key: "projects", Values: []string{"acme/pay"}}, {Key: "dates", Values: []string{"last week"}}}}}},
		stepSpec{id: "h1", desc: "Filter and rank commits by relevance", action: "rank", deps: []string{"h0"}},
		stepSpec{id: "h2", desc: "Format commit summary for user", action: "agent", role: "writer", deps: []string{"h1"}},
	)
}

// twoChains is a plan of two independent chains, each a retrieval, a step
// without I/O and a writer (h0 → h1 → h2 over git, h3 → h4 → h5 over
// forum), and the sources it reads.
func twoChains(rs *rules.Ruleset) (*engine.Plan, *fakeSources) {
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return commits(3), nil },
		"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			return []sdk.Record{{ID: "p1", Source: "forum"}}, nil
		},
	}}
	plan := buildPlan(rs, "what changed and what was said?", "discovery", nil,
		stepSpec{id: "h0", desc: "commits", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h1", desc: "count commits", action: "aggregate", deps: []string{"h0"}},
		stepSpec{id: "h2", desc: "report commits", action: "agent", role: "writer", deps: []string{"h1"}},
		stepSpec{id: "h3", desc: "posts", action: "retrieve", retrieve: []planSpec{{source: "forum"}}},
		stepSpec{id: "h4", desc: "count posts", action: "aggregate", deps: []string{"h3"}},
		stepSpec{id: "h5", desc: "report posts", action: "agent", role: "writer", deps: []string{"h4"}},
	)
	return plan, src
}
