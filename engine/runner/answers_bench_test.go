package runner

import (
	"fmt"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// BenchmarkAnswers10k is the result assembly of a two-intent run whose
// commits intent holds 10,000 records: the answers (counts, authors,
// kinds, understood lines) and the composed report.
func BenchmarkAnswers10k(b *testing.B) {
	plan := intentsPlan(b, "what changed in hclwrite in 2024 and which issues are open?", year2024,
		intentSpec{intent: "query_commits", desc: "Retrieve commit data", source: "git",
			filters: engine.Filters{{Key: "paths", Values: []string{"hclwrite/"}}, {Key: "dates", Values: []string{"2024-01-01..2024-12-31"}}}},
		intentSpec{intent: "query_issues", desc: "Retrieve issue data", source: "tracker"})
	r := newRun(New(nil, nil, Options{Clock: fixedClock}), plan)
	recs := make([]sdk.Record, 10_000)
	for i := range recs {
		recs[i] = rec(fmt.Sprintf("%040x", i), sdk.KindCommit, fmt.Sprintf("author %d", i%97), 1+i%28, nil)
	}
	issues := []sdk.Record{rec("HCL-1", sdk.KindIssue, "Ann", 5, nil)}
	for _, st := range r.steps {
		st.status = engine.StatusCompleted
		st.out.Records = recs
		if st.hyp.IntentIndex == 1 {
			st.out.Records = issues
		}
		if st.role() == sdk.RoleWriter {
			st.out.Answer = &sdk.WriterOutput{FinalReport: "# Report\n\n## Summary\n\nFound them.\n", ConfidenceLevel: "High"}
		}
	}
	res := &Result{Query: plan.Query}
	r.collect(res)
	b.ReportAllocs()
	for b.Loop() {
		res.Answers = nil
		r.answers(res)
		res.Report = Compose(res)
		if res.Answers[0].Count != len(recs) || res.Answers[0].Authors != 97 {
			b.Fatal(res.Answers[0].Line())
		}
	}
}
