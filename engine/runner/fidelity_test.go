package runner

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/timerange"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nearestCheck is the default rules' retrieval check: an empty period
// looks for the nearest activity in direction dir.
func nearestCheck(dir string) string {
	return `
check "retrieval_found_data" {
  applies = "step.action == 'retrieve' && step.status == 'completed'"
  assert  = "len(step.records) > 0"
  message = "retrieval returned no records"
  on_fail = "refine"
  refine {
    op      = "MODIFY"
    nearest = "` + dir + `"
  }
}
`
}

// history answers as a git source does: the records in [Since, Until),
// newest first, at most Limit of them (unless it ignores the limit).
type historySource struct {
	recs        []sdk.Record
	ignoreLimit bool
}

func (h historySource) fetch(_ context.Context, req sdk.FetchRequest) ([]sdk.Record, error) {
	var out []sdk.Record
	for _, r := range h.recs {
		if (!req.Since.IsZero() && r.Time.Before(req.Since)) || (!req.Until.IsZero() && !r.Time.Before(req.Until)) {
			continue
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b sdk.Record) int { return b.Time.Compare(a.Time) })
	if req.Limit > 0 && len(out) > req.Limit && !h.ignoreLimit {
		out = out[:req.Limit]
	}
	return out, nil
}

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func rangeOf(since, until time.Time) timerange.Range {
	return timerange.Range{Since: since, Until: until}
}

func commitOn(id, title, on string) sdk.Record {
	return sdk.Record{ID: id, Source: "git", Kind: sdk.KindCommit, Title: title, Author: "alice", Time: date(on).Add(10 * time.Hour)}
}

// The clock is Tuesday 2026-11-10: last week is [2026-11-02, 2026-11-09).
var quietHistory = []sdk.Record{
	commitOn("c1", "initial import", "2026-09-01"),
	commitOn("c2", "fix payments rounding", "2026-10-25"),
	commitOn("c3", "release 1.2", "2026-10-20"),
	commitOn("c4", "plan the next release", "2026-11-20"), // after the clock: a pre-dated commit
	commitOn("c5", "later work", "2026-12-01"),
}

func TestEmptyPeriodLooksBeforeAndSaysSo(t *testing.T) {
	rs := loadRules(t, nearestCheck("before"))
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": historySource{recs: quietHistory}.fetch,
	}}
	agents := standardAgents()
	res, err := New(src, agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)

	reqs := src.requests()
	require.Len(t, reqs, 2)
	asked, near := reqs[0].Req, reqs[1].Req
	assert.Equal(t, date("2026-11-02"), asked.Since)
	assert.Equal(t, date("2026-11-09"), asked.Until)
	assert.True(t, near.Since.IsZero(), "no lower bound: the nearest before")
	assert.Equal(t, asked.Since, near.Until, "up to the asked period's start")
	assert.Equal(t, 1, near.Limit)
	assert.Equal(t, asked.Filters, near.Filters, "the question's other filters are kept")
	assert.Equal(t, asked.Query, near.Query)

	h0 := res.Steps[0]
	assert.Equal(t, OutsideBefore, h0.Outside)
	assert.Equal(t, date("2026-11-02"), h0.AskedSince)
	assert.Equal(t, date("2026-11-09"), h0.AskedUntil)
	assert.Empty(t, res.Steps[2].Outside, "only the retrieval answers a broadened question")
	require.Len(t, res.Records, 1)
	assert.Equal(t, "c2", res.Records[0].ID, "the most recent commit before the period")
	assert.Equal(t, OutsideBefore, res.Records[0].Fields[FieldOutside])
	writer := agents.requests(sdk.RoleWriter)
	require.NotEmpty(t, writer)
	require.Len(t, writer[0].Context, 1)
	assert.Equal(t, OutsideBefore, writer[0].Context[0].Fields[FieldOutside], "agents see the record is outside the period")

	assert.Equal(t, ResultPartial, res.Status)
	assert.Equal(t, []string{`No matching commits between 2026-11-02 and 2026-11-08; showing the most recent before that: c2 "fix payments rounding" on 2026-10-25.`}, res.Caveats)
	assert.Equal(t, "Medium", res.Answer.ConfidenceLevel, "a partial answer is not high confidence")
	assert.Equal(t, []history.Refinement{{Op: OpModify, Step: "h0", Nearest: "before",
		Justification: `check "retrieval_found_data": retrieval returned no records`, Applied: true}}, res.History.Passes[0].Refinements)
	assert.Equal(t, history.Converged, res.History.Termination)
}

func TestEmptyPeriodLooksAfter(t *testing.T) {
	rs := loadRules(t, nearestCheck("after"))
	// The source ignores the limit: the oldest after the period is still found.
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": historySource{recs: quietHistory, ignoreLimit: true}.fetch,
	}}
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	reqs := src.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, date("2026-11-09"), reqs[1].Req.Since)
	assert.True(t, reqs[1].Req.Until.IsZero())
	require.Len(t, res.Records, 1)
	assert.Equal(t, "c4", res.Records[0].ID, "the oldest after the period, though the source returns newest first")
	assert.Equal(t, OutsideAfter, res.Steps[0].Outside)
	assert.Equal(t, OutsideAfter, res.Records[0].Fields[FieldOutside])
	assert.Equal(t, ResultPartial, res.Status)
	assert.Equal(t, []string{`No matching commits between 2026-11-02 and 2026-11-08; showing the oldest after that: c4 "plan the next release" on 2026-11-20.`}, res.Caveats)
}

func TestEmptyPeriodWithNothingBefore(t *testing.T) {
	rs := loadRules(t, nearestCheck("before"))
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": historySource{recs: quietHistory[3:]}.fetch, // only commits after the period
	}}
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	require.Len(t, src.requests(), 2, "looked before once, and no more")
	assert.Empty(t, res.Records)
	assert.Equal(t, OutsideBefore, res.Steps[0].Outside)
	assert.Equal(t, engine.StatusCompleted, res.Steps[0].Status, "an empty answer is an answer")
	assert.Equal(t, ResultPartial, res.Status)
	assert.Equal(t, []string{"No matching records between 2026-11-02 and 2026-11-08, and none before."}, res.Caveats)
	last := res.History.Passes[len(res.History.Passes)-1].Validation.Findings
	require.NotEmpty(t, last)
	assert.Equal(t, history.Finding{Check: "retrieval_found_data", Step: "h0", Severity: history.SeverityWarn,
		Message: "retrieval returned no records (nothing before the period either)", OnFail: "refine"}, last[0])
}

func TestEmptyAnswerWithoutPeriodStaysEmpty(t *testing.T) {
	rs := loadRules(t, nearestCheck("before"))
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return nil, nil },
	}}
	plan := buildPlan(rs, "which commits touched payments?", "discovery", map[string][]string{"paths": {"payments"}},
		stepSpec{id: "h0", desc: "Retrieve commits", action: "retrieve",
			retrieve: []planSpec{{source: "git", filters: engine.Filters{{Key: "paths", Values: []string{"payments"}}}}}},
		stepSpec{id: "h1", desc: "Write", action: "agent", role: "writer", deps: []string{"h0"}},
	)
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Len(t, src.requests(), 1, "no refinement that changes the question")
	assert.Empty(t, res.History.Passes[0].Refinements)
	assert.Empty(t, res.Steps[0].Outside)
	assert.Equal(t, ResultSuccess, res.Status, "no commits touched it: that is the answer")
	assert.Empty(t, res.Caveats)
	assert.Equal(t, "retrieval returned no records (no period to look around)", res.History.Passes[0].Validation.Findings[0].Message)
}

// interpreted is commitChain with an interpretation attached.
func interpreted(t *testing.T, in *engine.Interpretation) *engine.Plan {
	plan := commitChain(loadRules(t, nearestCheck("before")), "discovery")
	plan.Interpretation = in
	return plan
}

func TestCaveatsMakeTheRunPartial(t *testing.T) {
	since := date("2026-11-02")
	tests := []struct {
		name    string
		in      *engine.Interpretation
		status  string
		caveats []string
	}{
		{"everything applied", &engine.Interpretation{Grounded: true, Sources: []engine.SourceView{{Name: "git", Filters: []string{"projects", "paths"}}}},
			ResultSuccess, nil},
		{"unapplied constraint", &engine.Interpretation{Unapplied: []engine.Constraint{{Key: "paths", Value: "foo/", Source: "git", Reason: "no such path in the repository."}}},
			ResultPartial, []string{`The path filter "foo/" could not be applied: no such path in the repository.`}},
		{"unapplied without a reason", &engine.Interpretation{Unapplied: []engine.Constraint{{Key: "statuses", Value: "open", Source: "git"}}},
			ResultPartial, []string{`The status filter "open" could not be applied: source "git" cannot filter by statuses.`}},
		{"unknown constraint", &engine.Interpretation{Unknown: []engine.Constraint{{Key: "authors", Phrase: "Zed"}}},
			ResultPartial, []string{`The author filter "Zed" could not be applied: no source knows it.`}},
		{"missing path", &engine.Interpretation{Missing: []engine.Constraint{{Key: "paths", Value: "vm/nosuchfile.go", Reason: "no file or directory in the tree"}}},
			ResultPartial, []string{`No path "vm/nosuchfile.go" in the repository's tree: the answer is about that path only.`}},
		{"history truncated inside the period", &engine.Interpretation{Sources: []engine.SourceView{{Name: "git",
			Coverage: sdk.Coverage{Name: "acme/pay", Earliest: since.AddDate(0, 0, 3), Truncated: "shallow clone"}}}},
			ResultPartial, []string{"The history of acme/pay is truncated (shallow clone): its history before 2026-11-05 is incomplete."}},
		{"history truncated before the period", &engine.Interpretation{Sources: []engine.SourceView{{Name: "git",
			Coverage: sdk.Coverage{Earliest: since.AddDate(0, -1, 0), Truncated: "shallow clone"}}}},
			ResultSuccess, nil},
		{"truncated history of a source the plan does not ask", &engine.Interpretation{Sources: []engine.SourceView{{Name: "forum",
			Coverage: sdk.Coverage{Earliest: since.AddDate(0, 0, 3), Truncated: "shallow clone"}}}},
			ResultSuccess, nil},
		{"a source of the plan not configured", &engine.Interpretation{Sources: []engine.SourceView{{Name: "youtrack", Error: "not configured: set YOUTRACK_TOKEN."}}},
			ResultPartial, []string{`Source "youtrack" is not available: not configured: set YOUTRACK_TOKEN.`}},
		{"in reading order", &engine.Interpretation{
			Unapplied: []engine.Constraint{{Key: "paths", Value: "a/", Reason: "r1"}},
			Unknown:   []engine.Constraint{{Key: "topics", Value: "b", Reason: "r2"}},
			Sources:   []engine.SourceView{{Name: "youtrack", Error: "down"}}},
			ResultPartial, []string{`The path filter "a/" could not be applied: r1.`, `The topic filter "b" could not be applied: r2.`, `Source "youtrack" is not available: down.`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New(gitSource(commits(3)), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), interpreted(t, tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.status, res.Status)
			assert.Equal(t, tt.caveats, res.Caveats)
			want := "High"
			if tt.status == ResultPartial {
				want = "Medium"
			}
			assert.Equal(t, want, res.Answer.ConfidenceLevel)
		})
	}
}

func TestFailingSources(t *testing.T) {
	down := func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
		return nil, sdk.Errorf(sdk.KindUnavailable, "connection refused")
	}
	plan := func(t *testing.T) *engine.Plan {
		rs := loadRules(t, nearestCheck("before"))
		return buildPlan(rs, "what changed?", "discovery", nil,
			stepSpec{id: "h0", desc: "Retrieve commits", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 10}}},
			stepSpec{id: "h1", desc: "Retrieve posts", action: "retrieve", retrieve: []planSpec{{source: "forum", priority: 5}}},
			stepSpec{id: "h2", desc: "Write", action: "agent", role: "writer", deps: []string{"h0", "h1"}},
		)
	}
	t.Run("one of two", func(t *testing.T) {
		src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
			"git": historySource{recs: quietHistory}.fetch, "forum": down,
		}}
		res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan(t))
		require.NoError(t, err)
		assert.Equal(t, ResultPartial, res.Status)
		assert.Equal(t, []string{`Source "forum" failed: connection refused.`}, res.Caveats)
	})
	t.Run("all", func(t *testing.T) {
		src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){"git": down, "forum": down}}
		res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan(t))
		require.NoError(t, err)
		assert.Equal(t, ResultFailed, res.Status)
		assert.Equal(t, []string{
			"No source answered the question: every retrieval failed.",
			`Source "git" failed: connection refused.`,
			`Source "forum" failed: connection refused.`,
		}, res.Caveats)
	})
	t.Run("not configured, said by the source's error", func(t *testing.T) {
		src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
			"git": historySource{recs: quietHistory}.fetch,
			"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
				return nil, sdk.Errorf(sdk.KindBadConfig, `source "forum" is not configured: set FORUM_URL`)
			},
		}}
		res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan(t))
		require.NoError(t, err)
		assert.Equal(t, ResultPartial, res.Status)
		assert.Equal(t, []string{`Source "forum" is not configured: set FORUM_URL.`}, res.Caveats)
	})
	t.Run("none configured", func(t *testing.T) {
		rs := loadRules(t, nearestCheck("before"))
		p := buildPlan(rs, "what are the open issues?", "discovery", nil,
			stepSpec{id: "h0", desc: "Retrieve issues", action: "retrieve"},
			stepSpec{id: "h1", desc: "Write", action: "agent", role: "writer", deps: []string{"h0"}},
		)
		p.Interpretation = &engine.Interpretation{Sources: []engine.SourceView{{Name: "youtrack", Error: "no issue tracker is configured"}}}
		res, err := New(&fakeSources{}, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), p)
		require.NoError(t, err)
		assert.Equal(t, ResultFailed, res.Status)
		assert.Equal(t, []string{"No source answered the question.", `Source "youtrack" is not available: no issue tracker is configured.`}, res.Caveats)
		assert.Equal(t, "Low", res.Answer.ConfidenceLevel)
	})
	t.Run("no source at all", func(t *testing.T) {
		rs := loadRules(t, "")
		p := buildPlan(rs, "what are the open issues?", "discovery", nil, stepSpec{id: "h0", desc: "Retrieve issues", action: "retrieve"})
		res, err := New(&fakeSources{}, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), p)
		require.NoError(t, err)
		assert.Equal(t, ResultFailed, res.Status)
		assert.Equal(t, []string{"No source is configured to answer the question."}, res.Caveats)
	})
}

func TestNearestOf(t *testing.T) {
	rg := struct{ since, until time.Time }{date("2026-11-02"), date("2026-11-09")}
	undated := sdk.Record{ID: "u", Title: "undated"}
	tests := []struct {
		name string
		dir  string
		recs []sdk.Record
		want string // "" for none
	}{
		{"before: newest of those before", nearestBefore, []sdk.Record{quietHistory[0], quietHistory[1], quietHistory[2]}, "c2"},
		{"before: one inside the period is not kept", nearestBefore, []sdk.Record{commitOn("in", "x", "2026-11-03"), quietHistory[2]}, "c3"},
		{"before: nothing", nearestBefore, nil, ""},
		{"before: undated only", nearestBefore, []sdk.Record{undated}, "u"},
		{"before: dated wins over undated", nearestBefore, []sdk.Record{undated, quietHistory[0]}, "c1"},
		{"after: oldest of those after", nearestAfter, []sdk.Record{quietHistory[4], quietHistory[3]}, "c4"},
		{"after: one before the end is not kept", nearestAfter, []sdk.Record{commitOn("in", "x", "2026-11-08"), quietHistory[4]}, "c5"},
		{"after: the end itself is after", nearestAfter, []sdk.Record{{ID: "edge", Time: date("2026-11-09")}}, "edge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.recs)
			got := nearestOf(in, tt.dir, rangeOf(rg.since, rg.until))
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, tt.want, got[0].ID)
			assert.Equal(t, outsideValue(tt.dir), got[0].Fields[FieldOutside])
			for _, r := range tt.recs {
				assert.Nil(t, r.Fields[FieldOutside], "the source's records are not changed")
			}
		})
	}
}

func TestPeriodText(t *testing.T) {
	tests := []struct {
		since, until time.Time
		want         string
	}{
		{date("2026-11-02"), date("2026-11-09"), "between 2026-11-02 and 2026-11-08"},
		{date("2026-11-09"), date("2026-11-10"), "on 2026-11-09"},
		{date("2026-10-27").Add(12 * time.Hour), fixedNow, "between 2026-10-27 and 2026-11-10"},
		{time.Time{}, date("2024-01-01"), "before 2024-01-01"},
		{date("2024-01-01"), time.Time{}, "since 2024-01-01"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, periodText(rangeOf(tt.since, tt.until)))
	}
}

func TestNouns(t *testing.T) {
	for in, want := range map[string]string{"paths": "path", "statuses": "status", "authors": "author", "revisions": "revision", "topics": "topic"} {
		assert.Equal(t, want, singular(in), in)
	}
	for in, want := range map[string]string{"commit": "commits", "issue": "issues", "": "records", "entry": "entries", "status": "statuses"} {
		assert.Equal(t, want, pluralKind(in), in)
	}
}
