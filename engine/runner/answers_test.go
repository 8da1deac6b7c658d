package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// intentsPlan is a plan of several intents, each retrieve → writer on
// one source, with the intents and indexes the planner would set.
func intentsPlan(t testing.TB, query string, interp *engine.Interpretation, intents ...intentSpec) *engine.Plan {
	t.Helper()
	var specs []stepSpec
	for i, in := range intents {
		r, w := "h"+string(rune('0'+2*i)), "h"+string(rune('1'+2*i))
		specs = append(specs,
			stepSpec{id: r, desc: in.desc, action: "retrieve", retrieve: []planSpec{{source: in.source, priority: 10, filters: in.filters}}},
			stepSpec{id: w, desc: "Format summary for user", action: "agent", role: "writer", deps: []string{r}})
		if in.stats {
			specs[len(specs)-1].deps = []string{r + "s"}
			specs = append(specs[:len(specs)-1], stepSpec{id: r + "s", desc: "Calculate statistics", action: "stats", deps: []string{r}}, specs[len(specs)-1])
		}
	}
	p := buildPlan(loadRules(t, ""), query, "discovery", nil, specs...)
	p.Interpretation = interp
	for i, in := range intents {
		p.Reasoning.Intents = append(p.Reasoning.Intents, engine.Intent{Type: in.intent, Confidence: 0.9})
		for j := range p.Reasoning.Hypotheses {
			if h := &p.Reasoning.Hypotheses[j]; strings.HasPrefix(h.ID, "h"+string(rune('0'+2*i))) || h.ID == "h"+string(rune('1'+2*i)) {
				h.Intent, h.IntentIndex = in.intent, i
			}
		}
		p.Retrieval.Plans[i].Intent = in.intent
	}
	return p
}

type intentSpec struct {
	intent, desc, source string
	filters              engine.Filters
	stats                bool
}

func sources(recs map[string][]sdk.Record) *fakeSources {
	f := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){}}
	for name, rs := range recs {
		f.fetch[name] = func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return rs, nil }
	}
	return f
}

func rec(id, kind, author string, day int, fields map[string]any) sdk.Record {
	return sdk.Record{ID: id, Source: "git", Kind: kind, Title: "title of " + id, Author: author,
		Time: time.Date(2024, 11, day, 10, 0, 0, 0, time.UTC), Fields: fields}
}

var year2024 = &engine.Interpretation{
	Dates: &engine.DateRange{Phrases: []string{"in 2024"}, Since: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
	Sources: []engine.SourceView{
		{Name: "git", Coverage: sdk.Coverage{Name: "hashicorp/hcl"}},
		{Name: "tracker", Coverage: sdk.Coverage{Name: "HCL tracker"}},
	},
}

func TestAnswers(t *testing.T) {
	sha := "923b06b5c0ffee00000000000000000000000001"
	commitsIntent := intentSpec{intent: "query_commits", desc: "Retrieve commit data", source: "git",
		filters: engine.Filters{{Key: "paths", Values: []string{"hclwrite/"}}, {Key: "dates", Values: []string{"2024-01-01..2024-12-31"}}}}
	issuesIntent := intentSpec{intent: "query_issues", desc: "Retrieve issue data", source: "tracker",
		filters: engine.Filters{{Key: "statuses", Values: []string{"open"}}, {Key: "dates", Values: []string{"2024-01-01..2024-12-31"}}}}
	for _, tt := range []struct {
		name    string
		query   string
		interp  *engine.Interpretation
		intents []intentSpec
		records map[string][]sdk.Record
		lines   []string
		counts  []int
		authors []int
		status  []string
		result  string
		check   func(t *testing.T, res *Result)
	}{
		{
			name: "two intents", query: "what changed in hclwrite in 2024 and which issues are open?", interp: year2024,
			intents: []intentSpec{commitsIntent, issuesIntent},
			records: map[string][]sdk.Record{
				"git": {rec(sha, sdk.KindCommit, "Radek Simko", 2, map[string]any{"short_id": "923b06b"}),
					rec("c2", sdk.KindCommit, "radek simko", 3, nil), rec("c3", sdk.KindCommit, "James Bardin", 4, nil)},
				"tracker": {rec("HCL-1", sdk.KindIssue, "Ann", 5, nil)},
			},
			lines: []string{
				"Commits in hashicorp/hcl touching hclwrite/, 2024-01-01 – 2024-12-31: 3 commits by 2 authors",
				"Issues in HCL tracker with status open, 2024-01-01 – 2024-12-31: 1 issue by 1 author",
			},
			counts: []int{3, 1}, authors: []int{2, 1}, status: []string{ResultSuccess, ResultSuccess}, result: ResultSuccess,
			check: func(t *testing.T, res *Result) {
				assert.Equal(t, []string{sha, "c2", "c3"}, res.Answers[0].Records)
				assert.Equal(t, "h1", res.Answers[0].Step)
				assert.Equal(t, []string{"h0", "h1"}, res.Answers[0].Steps)
				assert.Contains(t, res.Answers[1].Report, "records: HCL-1", "each intent keeps its own writer's text")
				first, second := strings.Index(res.Report, "\n## Commits"), strings.Index(res.Report, "\n## Issues")
				require.Positive(t, first)
				assert.Greater(t, second, first, "one section per intent, in plan order")
				assert.True(t, strings.HasPrefix(res.Report, "Understood:\n- Commits in hashicorp/hcl"), res.Report)
				assert.Contains(t, res.Report, "records: "+sha+",c2,c3")
			},
		},
		{
			name: "empty period answered with the nearest activity", query: "what changed in hclwrite in 2024?", interp: year2024,
			intents: []intentSpec{commitsIntent},
			records: map[string][]sdk.Record{"git": {
				rec(sha, sdk.KindCommit, "Radek Simko", 2, map[string]any{"short_id": "923b06b", FieldOutside: OutsideBefore}),
				rec("c0", sdk.KindCommit, "Radek Simko", 1, map[string]any{FieldOutside: true}),
			}},
			lines:  []string{"Commits in hashicorp/hcl touching hclwrite/, 2024-01-01 – 2024-12-31: no commits; the most recent before that is `923b06b` \"title of " + sha + "\" on 2024-11-02"},
			counts: []int{0}, authors: []int{0}, status: []string{ResultPartial}, result: ResultPartial,
			check: func(t *testing.T, res *Result) {
				a := res.Answers[0]
				assert.Equal(t, OutsideBefore, a.Outside)
				assert.Equal(t, year2024.Dates.Since, a.AskedSince)
				assert.Equal(t, year2024.Dates.Until, a.AskedUntil)
				require.NotNil(t, a.Nearest)
				assert.Equal(t, sha, a.Nearest.ID)
				assert.Empty(t, a.Records, "records outside the period are context, not the answer")
			},
		},
		{
			name: "counting counts the kind asked for", query: "how many commits were made in 2024?", interp: year2024,
			intents: []intentSpec{{intent: "query_analytics", desc: "Retrieve commit metrics", source: "git", stats: true,
				filters: engine.Filters{{Key: "dates", Values: []string{"2024-01-01..2024-12-31"}}}}},
			records: map[string][]sdk.Record{"git": {rec("c1", sdk.KindCommit, "a", 2, nil), rec("c2", sdk.KindCommit, "b", 3, nil),
				rec("PAY-1", sdk.KindIssue, "c", 4, nil)}},
			lines:  []string{"Number of commits in hashicorp/hcl: 2 commits by 2 authors between 2024-01-01 and 2024-12-31"},
			counts: []int{2}, authors: []int{2}, status: []string{ResultSuccess}, result: ResultSuccess,
			check: func(t *testing.T, res *Result) {
				assert.True(t, res.Answers[0].Counting)
				assert.Equal(t, "h1", res.Answers[0].Step, "the writer step holds the stats step's records")
			},
		},
		{
			name: "an unapplied constraint makes the answer partial", query: "what did Ann change in 2024?",
			interp: &engine.Interpretation{Dates: year2024.Dates, Sources: year2024.Sources,
				Unapplied: []engine.Constraint{{Key: "authors", Value: "Ann", Source: "git", Reason: "no authors filter"}}},
			intents: []intentSpec{{intent: "query_commits", desc: "Retrieve commit data", source: "git", filters: engine.Filters{{Key: "dates", Values: []string{"2024-01-01..2024-12-31"}}}}},
			records: map[string][]sdk.Record{"git": {rec("c1", sdk.KindCommit, "Bob", 2, nil)}},
			lines:   []string{"Commits in hashicorp/hcl (not applied: by Ann), 2024-01-01 – 2024-12-31: 1 commit by 1 author"},
			counts:  []int{1}, authors: []int{1}, status: []string{ResultPartial}, result: ResultPartial,
		},
		{
			name: "an ambiguous path the plan still narrows to is said in the line", query: "who contributed to git in 2024?",
			interp: &engine.Interpretation{Dates: year2024.Dates, Sources: year2024.Sources,
				Constraints: []engine.Constraint{{Key: "paths", Value: "perl/Git", Phrase: "git", Source: "git", Reason: `"git" matches perl/Git only in another case`}}},
			intents: []intentSpec{{intent: "query_commits", desc: "Retrieve commit data", source: "git",
				filters: engine.Filters{{Key: "paths", Values: []string{"perl/Git"}}, {Key: "dates", Values: []string{"2024-01-01..2024-12-31"}}}}},
			records: map[string][]sdk.Record{"git": {rec("c1", sdk.KindCommit, "Bob", 2, nil)}},
			lines:   []string{`Commits in hashicorp/hcl touching perl/Git ("git" matches perl/Git only in another case), 2024-01-01 – 2024-12-31: 1 commit by 1 author`},
			counts:  []int{1}, authors: []int{1}, status: []string{ResultSuccess}, result: ResultSuccess,
		},
		{
			name: "without an interpretation the dates entity is resolved", query: "what changed last week?",
			intents: []intentSpec{{intent: "query_commits", desc: "Retrieve commit data", source: "git",
				filters: engine.Filters{{Key: "dates", Values: []string{"last week"}}}}},
			records: map[string][]sdk.Record{"git": {}},
			lines:   []string{"Commits, 2026-11-02 – 2026-11-08: no commits"},
			counts:  []int{0}, authors: []int{0}, status: []string{ResultSuccess}, result: ResultSuccess,
		},
		{
			// The status intent's fixed "last week" is its own: the closed
			// issues were not asked for a period and are not filtered by one.
			name: "one intent's fixed period is not another's", query: "what is the status of the project? show closed issues",
			interp: &engine.Interpretation{Sources: year2024.Sources},
			intents: []intentSpec{
				{intent: "query_issues", desc: "Retrieve issue data", source: "tracker", filters: engine.Filters{{Key: "statuses", Values: []string{"closed"}}}},
				{intent: "query_commits", desc: "Retrieve recent commits", source: "git", filters: engine.Filters{{Key: "dates", Values: []string{"last week"}}}},
			},
			records: map[string][]sdk.Record{
				"tracker": {rec("HCL-1", sdk.KindIssue, "Ann", 5, nil)},
				"git":     {rec("c1", sdk.KindCommit, "Bob", 3, nil)},
			},
			lines: []string{
				"Issues in HCL tracker with status closed: 1 issue by 1 author",
				"Commits in hashicorp/hcl, 2026-11-02 – 2026-11-08: 1 commit by 1 author",
			},
			counts: []int{1, 1}, authors: []int{1, 1}, status: []string{ResultSuccess, ResultSuccess}, result: ResultSuccess,
		},
		{
			name: "a failed retrieval is not answered", query: "what changed?", interp: year2024,
			intents: []intentSpec{{intent: "query_commits", desc: "Retrieve commit data", source: "nowhere", filters: engine.Filters{{Key: "dates", Values: []string{"2024-01-01..2024-12-31"}}}}},
			records: map[string][]sdk.Record{},
			lines:   []string{"Commits, 2024-01-01 – 2024-12-31: not answered (h0: plan0 on source \"nowhere\": no source \"nowhere\")"},
			counts:  []int{0}, authors: []int{0}, status: []string{ResultFailed}, result: ResultFailed,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := intentsPlan(t, tt.query, tt.interp, tt.intents...)
			if tt.interp == nil {
				plan.Reasoning.Entities = map[string][]string{"dates": {"last week"}}
			}
			res, _ := New(sources(tt.records), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
			require.Len(t, res.Answers, len(tt.lines))
			for i, a := range res.Answers {
				assert.Equal(t, tt.lines[i], a.Line(), "answer %d", i)
				assert.Equal(t, tt.counts[i], a.Count, "answer %d", i)
				assert.Equal(t, tt.authors[i], a.Authors, "answer %d", i)
				assert.Equal(t, tt.status[i], a.Status, "answer %d", i)
				assert.Equal(t, tt.intents[i].intent, a.Intent)
				assert.Contains(t, res.Report, "\n## "+a.Line()+"\n", "a section per intent headed by its line")
			}
			assert.Equal(t, tt.result, res.Status)
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}

func TestComposeOpensWithCaveats(t *testing.T) {
	res := &Result{
		Caveats: []string{"no commits between 2024-01-01 and 2024-12-31; the answer shows the most recent before it", "source \"youtrack\" is not configured"},
		Answers: []Answer{
			{Understood: "Commits in x", Result: "no commits", Report: "# Report: q\n\n## Summary\n\nNone.\n\n```\n# not a heading\n```\n"},
			{Understood: "Help: how?", Steps: []string{"h9"}},
		},
		Steps: []StepResult{{ID: "h9", Description: "Format helpful response", Status: engine.StatusFailed, Error: "agent down"}},
	}
	want := "Caveat: no commits between 2024-01-01 and 2024-12-31; the answer shows the most recent before it\n\n" +
		"Caveat: source \"youtrack\" is not configured\n\n" +
		"Understood:\n- Commits in x: no commits\n- Help: how?\n\n" +
		"## Commits in x: no commits\n\n### Summary\n\nNone.\n\n```\n# not a heading\n```\n\n" +
		"## Help: how?\n\n- h9 Format helpful response: failed — agent down\n"
	assert.Equal(t, want, Compose(res))
}

func TestComposeSaysARepeatedAnswerOnce(t *testing.T) {
	// "how many commits…" is a commit question and a counting one: two
	// intents, the same finding.
	same := Answer{Understood: "Number of commits in expr", Result: "81 commits by 11 authors", Report: "# R\n\n## Summary\n\n81."}
	other := Answer{Understood: "Commits in expr touching docs", Result: "2 commits by 1 author"}
	res := &Result{Answers: []Answer{same, same, other}}
	got := Compose(res)
	assert.Equal(t, 1, strings.Count(got, "- Number of commits in expr: 81 commits by 11 authors\n"), got)
	assert.Equal(t, 1, strings.Count(got, "## Number of commits in expr"), got)
	assert.Contains(t, got, "- Commits in expr touching docs: 2 commits by 1 author")
	assert.Len(t, res.Answers, 3, "the result keeps every intent's answer")
}

func TestSection(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"# Title\n\nplain", "plain"},
		{"## A\n#### B", "### A\n##### B"},
		{"# T\n# A\n## B", "### A\n#### B"},
		{"###### deep", "### deep"},
		{"#not a heading\n~~~\n## in a fence\n~~~\n# real", "#not a heading\n~~~\n## in a fence\n~~~\n### real"},
	} {
		assert.Equal(t, tt.want, section(tt.in), "%q", tt.in)
	}
}

func TestDisplayID(t *testing.T) {
	for _, tt := range []struct {
		rec  sdk.Record
		want string
	}{
		{sdk.Record{ID: "923b06b5c0ffee00000000000000000000000001", Fields: map[string]any{"short_id": "923b06b5c"}}, "923b06b5c"},
		{sdk.Record{ID: "923b06b5c0ffee00000000000000000000000001"}, "923b06b5"},
		{sdk.Record{ID: "PAY-1234567890"}, "PAY-1234567890"},
		{sdk.Record{ID: "c1"}, "c1"},
		{sdk.Record{ID: "abc", Fields: map[string]any{"short_id": 7}}, "abc"},
	} {
		assert.Equal(t, tt.want, DisplayID(tt.rec))
	}
}

func TestComposeIsIdempotent(t *testing.T) {
	res := &Result{Report: "# hello\n", Caveats: []string{"first"}}
	res.Report = Compose(res)
	assert.Equal(t, "Caveat: first\n\n# hello\n", res.Report)
	res.Caveats = append(res.Caveats, "second", "first")
	res.Report = Compose(res)
	assert.Equal(t, "Caveat: first\n\nCaveat: second\n\n# hello\n", res.Report)
	res.Answers = []Answer{{Understood: "Commits", Result: "1 commit", Report: "text"}}
	res.Report = Compose(res)
	assert.Equal(t, res.Report, Compose(res))
}

func TestAnswerSaysAPeriodOnlyForTheRetrievalsThatAppliedIt(t *testing.T) {
	// The status intent fetches last week's commits and every open issue:
	// its line and its agents' period must not claim the week for the issues.
	plan := buildPlan(loadRules(t, ""), "what is the status of the project?", "discovery", nil,
		stepSpec{id: "h0", desc: "Retrieve recent commits", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 10, filters: engine.Filters{{Key: "dates", Values: []string{"last week"}}}}}},
		stepSpec{id: "h1", desc: "Retrieve open issues", action: "retrieve", retrieve: []planSpec{{source: "tracker", priority: 10, filters: engine.Filters{{Key: "statuses", Values: []string{"open"}}}}}},
		stepSpec{id: "h2", desc: "Format summary for user", action: "agent", role: "writer", deps: []string{"h0", "h1"}})
	plan.Reasoning.Intents = []engine.Intent{{Type: "query_status", Confidence: 0.9}}
	for i := range plan.Reasoning.Hypotheses {
		plan.Reasoning.Hypotheses[i].Intent = "query_status"
	}
	for i := range plan.Retrieval.Plans {
		plan.Retrieval.Plans[i].Intent = "query_status"
	}
	agents := standardAgents()
	res, _ := New(sources(map[string][]sdk.Record{
		"git":     {rec("c1", sdk.KindCommit, "Bob", 3, nil)},
		"tracker": {rec("HCL-1", sdk.KindIssue, "Ann", 40, nil)},
	}), agents, Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.Len(t, res.Answers, 1)
	assert.Equal(t, "Status from commits and issues with status open, period 2026-11-02 – 2026-11-08 for commits: 1 commit and 1 issue by 2 authors", res.Answers[0].Line())
	var temporal []*sdk.TimeRange
	for _, c := range agents.calls {
		if c.Role == sdk.RoleWriter {
			var in sdk.WriterInput
			require.NoError(t, json.Unmarshal(c.Input, &in))
			temporal = append(temporal, in.Temporal)
		}
	}
	require.NotEmpty(t, temporal)
	for _, tr := range temporal {
		require.NotNil(t, tr)
		assert.Equal(t, []string{sdk.KindCommit}, tr.Kinds, "the writer is told the period is the commits' only")
	}
}
