package youtrack

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/plugins/internal/fakes"
	"github.com/nous-dev/nous/sdk"
)

// BenchmarkFetchIssues measures records/s decoded from the fake YouTrack:
// 1,000 issues with 15 custom fields each over 10 pages, through the real
// client.
func BenchmarkFetchIssues(b *testing.B) {
	h := newHarness(b, "/youtrack")
	h.fake.Issues = fakes.GenerateYouTrackIssues(map[string]int{"ABC": 1000})
	req := sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC"}}}
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	for b.Loop() {
		if err := h.source.Fetch(context.Background(), req, func(sdk.Record) error { total++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "records/s")
}
