package gitlab

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/sdk"
)

// BenchmarkFetchCommits measures records/s decoded from the fake GitLab:
// 1,000 commits with stats over 10 pages, through the real client.
func BenchmarkFetchCommits(b *testing.B) {
	benchmarkKind(b, sdk.KindCommit, 1000)
}

// BenchmarkFetchIssues is BenchmarkFetchCommits for 1,000 issues.
func BenchmarkFetchIssues(b *testing.B) {
	benchmarkKind(b, sdk.KindIssue, 1000)
}

func benchmarkKind(b *testing.B, kind string, n int) {
	h := newHarness(b, nil)
	h.fake.Project = fakesProject(n)
	req := sdk.FetchRequest{Kind: kind, Filters: project("group/sub/app")}
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	for b.Loop() {
		err := h.source.Fetch(context.Background(), req, func(sdk.Record) error { total++; return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "records/s")
}
