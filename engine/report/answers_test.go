package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The answer scenarios: results as the executor assembles them for a
// two-intent question, an empty period, a partial answer and a count.

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func commit(sha, short, title, author string, at time.Time) sdk.Record {
	return sdk.Record{ID: sha, Source: "gitlab", Kind: sdk.KindCommit, Title: title, Author: author, Time: at, Tier: 1,
		Fields: map[string]any{"short_id": short}}
}

var hclRecords = []sdk.Record{
	commit("923b06b5c2d8a1f0e4b7c6d5a4f3e2d1c0b9a8f7", "923b06b", "hclwrite: format nested blocks", "Radek Simko", date(2024, 12, 3).Add(10*time.Hour)),
	commit("6727daf2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6", "6727daf", "hclwrite: keep comments on attributes", "Radek Simko", date(2024, 11, 20).Add(9*time.Hour)),
	commit("d69d8de4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8", "d69d8de", "hclwrite: tokens for heredocs", "James Bardin", date(2024, 6, 17).Add(15*time.Hour)),
	{ID: "HCL-12", Source: "youtrack", Kind: sdk.KindIssue, Title: "hclwrite drops trailing comments", Author: "Ann Lee",
		URL: "https://youtrack.example.com/issue/HCL-12", Time: date(2024, 10, 2), Tier: 1},
}

// writerText is a writer's report for one intent, as the template writer
// composes it.
func writerText(query, summary, confidence string, lines ...string) string {
	return "# Report: " + query + "\n\n## Summary\n\n" + summary + " Confidence: " + confidence + ".\n\n## Details\n\n" +
		strings.Join(lines, "\n") + "\n\n## Mode and source tiers\n\nMode: discovery — all sources kept. None is flagged.\n"
}

// scenario assembles a result the way runner.finish does: the answers and
// caveats, then the report composed from them.
func scenario(query, status string, interp *engine.Interpretation, steps []runner.StepResult, records []sdk.Record, caveats []string, answers ...runner.Answer) *runner.Result {
	tr := trace.New(func() time.Time { return at })
	tr.Add(trace.Entry{Stage: trace.Planning, Thought: "Execute " + itoa(len(steps)) + " step(s)", Action: "plan", Outcome: trace.Success})
	tr.Add(trace.Entry{Stage: trace.Finalization, Thought: "Run " + status, Action: "finalize", Outcome: trace.Success})
	res := &runner.Result{
		ExecutionID: "run-2", Query: query, Mode: "discovery", Status: status, Caveats: caveats, Answers: answers,
		Steps: steps, Records: records,
		Plan: &engine.Plan{Query: query, Mode: "discovery", Interpretation: interp, Diagnostics: []engine.Diagnostic{}},
		History: &history.History{ExecutionID: "run-2", TaskInput: query, Termination: history.Converged,
			Passes: []history.Pass{{Number: 1, StartedAt: at, EndedAt: at}}, StartedAt: at, EndedAt: at},
		Trace: tr.Entries(),
	}
	last := answers[len(answers)-1]
	res.Answer = &sdk.WriterOutput{FinalReport: last.Report, SourcesUsed: last.SourcesUsed, ConfidenceLevel: last.Confidence}
	res.Report = runner.Compose(res)
	return res
}

func itoa(n int) string { return string(rune('0' + n)) }

var hclSources = []engine.SourceView{
	{Name: "gitlab", Filters: []string{"paths", "authors", "dates"}, Coverage: sdk.Coverage{Name: "hashicorp/hcl", Earliest: date(2014, 7, 31), Latest: date(2026, 3, 31)}},
	{Name: "youtrack", Filters: []string{"projects", "statuses", "dates"}, Coverage: sdk.Coverage{Name: "HCL"}},
}

func twoIntents() *runner.Result {
	q := "what changed in hclwrite in 2024 and which issues are open?"
	interp := &engine.Interpretation{Now: at, Grounded: true, Sources: hclSources,
		Dates:       &engine.DateRange{Phrases: []string{"in 2024"}, Since: date(2024, 1, 1), Until: date(2025, 1, 1)},
		Constraints: []engine.Constraint{{Key: "paths", Value: "hclwrite/", Phrase: "hclwrite", Source: "gitlab"}, {Key: "statuses", Value: "open"}}}
	return scenario(q, runner.ResultSuccess, interp,
		[]runner.StepResult{
			{ID: "h0", Description: "Retrieve commit data from GitLab", Intent: "query_commits", Action: "retrieve", Status: engine.StatusCompleted, Records: 3},
			{ID: "h1", Description: "Format commit summary for user", Intent: "query_commits", Action: "agent", Role: "writer", Status: engine.StatusCompleted, Records: 3},
			{ID: "h2", Description: "Retrieve issue data from YouTrack", Intent: "query_issues", Action: "retrieve", Status: engine.StatusCompleted, Records: 1},
			{ID: "h3", Description: "Format issue summary for user", Intent: "query_issues", Action: "agent", Role: "writer", Status: engine.StatusCompleted, Records: 1},
		}, hclRecords, nil,
		runner.Answer{Intent: "query_commits", Understood: "Commits in hashicorp/hcl touching hclwrite/, 2024-01-01 – 2024-12-31", Result: "3 commits by 2 authors",
			Status: runner.ResultSuccess, Count: 3, Authors: 2, Step: "h1", Steps: []string{"h0", "h1"}, Confidence: "High",
			Records:     []string{hclRecords[0].ID, hclRecords[1].ID, hclRecords[2].ID},
			SourcesUsed: []string{hclRecords[0].ID, hclRecords[1].ID, hclRecords[2].ID},
			Report: writerText(q, "Found 3 records dated 2024-06-17 – 2024-12-03: 3 commits.", "High (review PASS, 3 records)",
				"- Top authors: Radek Simko (2), James Bardin (1)", "", "### Commits (3)", "",
				"- `923b06b` hclwrite: format nested blocks — Radek Simko, 2024-12-03",
				"- `6727daf` hclwrite: keep comments on attributes — Radek Simko, 2024-11-20",
				"- `d69d8de` hclwrite: tokens for heredocs — James Bardin, 2024-06-17")},
		runner.Answer{Intent: "query_issues", Understood: "Issues in HCL with status open, 2024-01-01 – 2024-12-31", Result: "1 issue by 1 author",
			Status: runner.ResultSuccess, Count: 1, Authors: 1, Step: "h3", Steps: []string{"h2", "h3"}, Confidence: "Medium",
			Records: []string{"HCL-12"}, SourcesUsed: []string{"https://youtrack.example.com/issue/HCL-12"},
			Report: writerText(q, "Found 1 record dated 2024-10-02: 1 issue.", "Medium (review WARN, 1 record)",
				"### Issues (1)", "", "- `HCL-12` hclwrite drops trailing comments — Ann Lee, 2024-10-02")},
	)
}

func emptyPeriod() *runner.Result {
	q := "what changed last week?"
	week := &engine.DateRange{Phrases: []string{"last week"}, Since: date(2026, 11, 2), Until: date(2026, 11, 9)}
	nearest := commit("2efc2662361a9f5fd39f5d0cd46970ce4c3f7be2", "2efc266", "Merge pull request #739 from wata727/skip_marked_values", "James Bardin", date(2026, 3, 31).Add(8*time.Hour))
	nearest.Fields[runner.FieldOutside] = runner.OutsideBefore
	return scenario(q, runner.ResultPartial, &engine.Interpretation{Now: at, Grounded: true, Dates: week, Constraints: []engine.Constraint{}, Sources: hclSources[:1]},
		[]runner.StepResult{
			{ID: "h0", Description: "Retrieve commit data from GitLab", Intent: "query_commits", Action: "retrieve", Status: engine.StatusCompleted, Records: 1,
				Outside: runner.OutsideBefore, AskedSince: week.Since, AskedUntil: week.Until},
			{ID: "h1", Description: "Format commit summary for user", Intent: "query_commits", Action: "agent", Role: "writer", Status: engine.StatusCompleted, Records: 1},
		}, []sdk.Record{nearest},
		[]string{`No commits between 2026-11-02 and 2026-11-08; showing the most recent before that: 2efc266 "Merge pull request #739 from wata727/skip_marked_values" on 2026-03-31.`},
		runner.Answer{Intent: "query_commits", Understood: "Commits in hashicorp/hcl, 2026-11-02 – 2026-11-08",
			Result: "no commits; the most recent before that is `2efc266` \"Merge pull request #739 from wata727/skip_marked_values\" on 2026-03-31",
			Status: runner.ResultPartial, Step: "h1", Steps: []string{"h0", "h1"}, Records: []string{}, Confidence: "Low",
			Outside: runner.OutsideBefore, AskedSince: week.Since, AskedUntil: week.Until,
			Nearest: &runner.RecordRef{ID: nearest.ID, ShortID: "2efc266", Title: nearest.Title, Time: nearest.Time},
			Report: "# Report: " + q + "\n\n## Summary\n\nNo commits in the requested period (2026-11-02 – 2026-11-08); the most recent before it is `2efc266` " +
				nearest.Title + " (2026-03-31). Confidence: Low (nothing in the requested period: the records shown are the nearest activity outside it).\n\n" +
				"## Details\n\n### Nearest activity outside the requested period (1)\n\n- `2efc266` " + nearest.Title + " — James Bardin, 2026-03-31\n"},
	)
}

func partialAnswer() *runner.Result {
	q := "what did Radek Simko change in hclwrite and which of his issues are open?"
	interp := &engine.Interpretation{Now: at, Grounded: true, Sources: hclSources,
		Constraints: []engine.Constraint{{Key: "authors", Value: "Radek Simko", Source: "gitlab"}, {Key: "paths", Value: "hclwrite/", Phrase: "hclwrite", Source: "gitlab"}},
		Unapplied:   []engine.Constraint{{Key: "authors", Value: "Radek Simko", Source: "youtrack", Reason: `source "youtrack" cannot filter by authors`}}}
	return scenario(q, runner.ResultPartial, interp,
		[]runner.StepResult{
			{ID: "h0", Description: "Retrieve commit data from GitLab", Intent: "query_commits", Action: "retrieve", Status: engine.StatusCompleted, Records: 2},
			{ID: "h1", Description: "Format commit summary for user", Intent: "query_commits", Action: "agent", Role: "writer", Status: engine.StatusCompleted, Records: 2},
			{ID: "h2", Description: "Retrieve issue data from YouTrack", Intent: "query_issues", Action: "retrieve", Status: engine.StatusCompleted, Records: 1},
			{ID: "h3", Description: "Format issue summary for user", Intent: "query_issues", Action: "agent", Role: "writer", Status: engine.StatusFailed, Error: `agent "writer" (writer): connection refused`},
		}, []sdk.Record{hclRecords[0], hclRecords[1], hclRecords[3]},
		[]string{`The author filter "Radek Simko" could not be applied: source "youtrack" cannot filter by authors.`},
		runner.Answer{Intent: "query_commits", Understood: "Commits in hashicorp/hcl touching hclwrite/ by Radek Simko", Result: "2 commits by 1 author",
			Status: runner.ResultSuccess, Count: 2, Authors: 1, Step: "h1", Steps: []string{"h0", "h1"}, Confidence: "Medium",
			Records: []string{hclRecords[0].ID, hclRecords[1].ID}, SourcesUsed: []string{hclRecords[0].ID, hclRecords[1].ID},
			Report: writerText(q, "Found 2 records dated 2024-11-20 – 2024-12-03: 2 commits.", "Medium (review WARN, 2 records)",
				"### Commits (2)", "", "- `923b06b` hclwrite: format nested blocks — Radek Simko, 2024-12-03",
				"- `6727daf` hclwrite: keep comments on attributes — Radek Simko, 2024-11-20")},
		runner.Answer{Intent: "query_issues", Understood: "Issues in HCL with status open (not applied: by Radek Simko)", Result: "1 issue by 1 author",
			Status: runner.ResultPartial, Count: 1, Authors: 1, Step: "h2", Steps: []string{"h2", "h3"}, Records: []string{"HCL-12"}},
	)
}

func counting() *runner.Result {
	q := "how many commits were made in the first half of 2025?"
	half := &engine.DateRange{Phrases: []string{"the first half of 2025"}, Since: date(2025, 1, 1), Until: date(2025, 7, 1)}
	var recs []sdk.Record
	var ids []string
	for i, r := range hclRecords[:3] {
		r.Time = date(2025, time.Month(2+2*i), 10)
		recs = append(recs, r)
		ids = append(ids, r.ID)
	}
	return scenario(q, runner.ResultSuccess, &engine.Interpretation{Now: at, Grounded: true, Dates: half, Constraints: []engine.Constraint{}, Sources: hclSources[:1]},
		[]runner.StepResult{
			{ID: "h0", Description: "Identify relevant data sources (commits, issues, metrics)", Intent: "query_analytics", Action: "retrieve", Status: engine.StatusCompleted, Records: 3},
			{ID: "h1", Description: "Aggregate data from multiple sources", Intent: "query_analytics", Action: "aggregate", Status: engine.StatusCompleted, Records: 3},
			{ID: "h2", Description: "Calculate statistics and trends", Intent: "query_analytics", Action: "stats", Status: engine.StatusCompleted, Records: 3},
			{ID: "h3", Description: "Generate analytics report with visualizations", Intent: "query_analytics", Action: "agent", Role: "writer", Status: engine.StatusCompleted, Records: 3},
		}, recs, nil,
		runner.Answer{Intent: "query_analytics", Understood: "Number of commits in hashicorp/hcl", Result: "3 commits by 2 authors between 2025-01-01 and 2025-06-30",
			Status: runner.ResultSuccess, Counting: true, Count: 3, Authors: 2, Step: "h3", Steps: []string{"h0", "h1", "h2", "h3"}, Records: ids, SourcesUsed: ids, Confidence: "High",
			Report: writerText(q, "3 commits by 2 authors between 2025-01-01 and 2025-06-30.", "High (review PASS, 3 records)",
				"- Top authors: Radek Simko (2), James Bardin (1)", "- Requested period: 2025-01-01 – 2025-06-30 (3 of 3 records fall in it)")},
	)
}

func TestAnswerGoldens(t *testing.T) {
	red := redact.New("glpat-SECRET123")
	for _, sc := range []struct {
		name string
		res  func() *runner.Result
	}{
		{"two_intents", twoIntents},
		{"empty_period", emptyPeriod},
		{"partial", partialAnswer},
		{"counting", counting},
	} {
		for _, f := range []struct{ format, ext string }{{"text", "txt"}, {"markdown", "md"}, {"json", "json"}, {"nlweb", "nlweb.json"}} {
			t.Run(sc.name+"."+f.ext, func(t *testing.T) {
				var b bytes.Buffer
				require.NoError(t, Render(&b, f.format, sc.res(), Options{Redactor: red}))
				golden(t, "answers_"+sc.name+"."+f.ext, b.Bytes())
				var again bytes.Buffer
				require.NoError(t, Render(&again, f.format, sc.res(), Options{Redactor: red}))
				assert.Equal(t, b.String(), again.String(), "deterministic")
			})
		}
	}
}

// TestReportOpening holds every answer format to the order the reader
// needs: caveats first, then what was understood, then a section per intent.
func TestReportOpening(t *testing.T) {
	for _, tt := range []struct {
		name  string
		res   *runner.Result
		first []string // the text report's first lines
	}{
		{"two intents", twoIntents(), []string{
			"Understood:",
			"- Commits in hashicorp/hcl touching hclwrite/, 2024-01-01 – 2024-12-31: 3 commits by 2 authors",
			"- Issues in HCL with status open, 2024-01-01 – 2024-12-31: 1 issue by 1 author"}},
		{"empty period", emptyPeriod(), []string{
			`Caveat: No commits between 2026-11-02 and 2026-11-08; showing the most recent before that: 2efc266 "Merge pull request #739 from wata727/skip_marked_values" on 2026-03-31.`,
			"", "Understood:",
			"- Commits in hashicorp/hcl, 2026-11-02 – 2026-11-08: no commits; the most recent before that is `2efc266` \"Merge pull request #739 from wata727/skip_marked_values\" on 2026-03-31"}},
		{"counting", counting(), []string{"Understood:", "- Number of commits in hashicorp/hcl: 3 commits by 2 authors between 2025-01-01 and 2025-06-30"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []string{"text", "markdown"} {
				var b bytes.Buffer
				require.NoError(t, Render(&b, format, tt.res, Options{}))
				lines := strings.Split(b.String(), "\n")
				require.GreaterOrEqual(t, len(lines), len(tt.first))
				assert.Equal(t, tt.first, lines[:len(tt.first)], format)
				last := -1
				for _, a := range tt.res.Answers {
					i := strings.Index(b.String(), "\n## "+a.Line()+"\n")
					assert.Greater(t, i, last, "%s: the section of %q follows the previous one", format, a.Intent)
					last = i
				}
			}
			var b bytes.Buffer
			require.NoError(t, Render(&b, "json", tt.res, Options{}))
			var doc struct {
				Result struct {
					Caveats []string        `json:"caveats"`
					Answers []runner.Answer `json:"answers"`
				} `json:"result"`
			}
			require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
			assert.Equal(t, tt.res.Caveats, doc.Result.Caveats)
			require.Len(t, doc.Result.Answers, len(tt.res.Answers))
			for i, a := range doc.Result.Answers {
				assert.Equal(t, tt.res.Answers[i].Line(), a.Line())
				assert.Equal(t, tt.res.Answers[i].Count, a.Count)
			}
		})
	}
}

func TestNLWebAnswerItems(t *testing.T) {
	for _, tt := range []struct {
		name        string
		res         *runner.Result
		confidences []string // report item, then each answer
		types       []string
		scores      []int
		analyzed    []int
	}{
		{"two intents", twoIntents(), []string{"Medium", "High", "Medium"}, []string{"ResearchReport", "ResearchAnswer", "ResearchAnswer"}, []int{95, 95, 95}, []int{4, 3, 1}},
		{"empty period", emptyPeriod(), []string{"Low", "Low"}, []string{"ResearchReport", "ResearchAnswer"}, []int{95, 95}, []int{1, 0}},
		{"partial, one answer without a writer", partialAnswer(), []string{"Medium", "Medium", "Low"}, []string{"ResearchReport", "ResearchAnswer", "ResearchAnswer"}, []int{95, 95, 95}, []int{3, 2, 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, Render(&b, "nlweb", tt.res, Options{}))
			var items []map[string]any
			require.NoError(t, json.Unmarshal(b.Bytes(), &items))
			require.Len(t, items, 1+len(tt.res.Answers), "the report, then one item per intent answer")
			for i, it := range items {
				assert.ElementsMatch(t, []string{"@type", "url", "name", "site", "siteUrl", "score", "description", "schema_object"}, keys(it), "item %d keeps the documented fields", i)
				so := it["schema_object"].(map[string]any)
				assert.Equal(t, tt.confidences[i], so["confidence"], "item %d", i)
				assert.Equal(t, tt.types[i], so["@type"], "item %d", i)
				assert.Equal(t, float64(tt.scores[i]), it["score"], "item %d", i)
				assert.Equal(t, float64(tt.analyzed[i]), so["total_sources_analyzed"], "item %d", i)
				if i > 0 {
					a := tt.res.Answers[i-1]
					assert.Equal(t, a.Line(), it["name"])
					assert.True(t, strings.HasPrefix(it["description"].(string), "## "+a.Line()+"\n"), "an answer item is its section")
					assert.Equal(t, items[0]["url"].(string)+"#answer-"+itoa(i), it["url"])
				}
			}
		})
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
