package youtrack

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/plugins/fakes"
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

// BenchmarkDecodeIssues isolates the client's decoding: one page of 100
// issues as YouTrack sends it, decoded and mapped to records, no HTTP.
func BenchmarkDecodeIssues(b *testing.B) {
	var page []json.RawMessage
	for _, is := range fakes.GenerateYouTrackIssues(map[string]int{"ABC": 100}) {
		page = append(page, is.JSON)
	}
	body, err := json.Marshal(page)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var issues []Issue
		if err := json.Unmarshal(body, &issues); err != nil {
			b.Fatal(err)
		}
		for _, is := range issues {
			_ = issueRecord(is, "https://acme.youtrack.cloud/issue/"+is.IDReadable, "updated")
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}
