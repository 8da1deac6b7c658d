package github

import (
	"context"
	"encoding/json"
	"testing"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/plugins/internal/fakes"
	"github.com/nous-dev/nous/sdk"
)

// BenchmarkFetchIssues measures records/s from the fake GitHub: 1,000
// issues (and 1,000 pull requests skipped) over 20 pages, through the real
// client, ETag cache off (each round on a fresh source's cache).
func BenchmarkFetchIssues(b *testing.B) { benchmarkKind(b, sdk.KindIssue) }

// BenchmarkFetchPullRequests is BenchmarkFetchIssues for 1,000 pull requests.
func BenchmarkFetchPullRequests(b *testing.B) { benchmarkKind(b, sdk.KindPullRequest) }

func benchmarkKind(b *testing.B, kind string) {
	h := newHarness(b, nil)
	h.fake.Repo = fakes.GenerateGitHubRepo("octo-org", "octo-repo", 1000, 1000)
	req := sdk.FetchRequest{Kind: kind}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		h.source.cache.entries, h.source.cache.order, h.source.cache.size = map[string]*cached{}, nil, 0
		err := h.source.Fetch(context.Background(), req, func(sdk.Record) error { total++; return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkDecodeIssues isolates decoding: one page of 100 issues as GitHub
// sends it, decoded by go-github's types and mapped to records, no HTTP.
func BenchmarkDecodeIssues(b *testing.B) {
	var issues []fakes.GitHubIssue
	for _, it := range fakes.GenerateGitHubRepo("o", "r", 100, 0).Issues {
		issues = append(issues, it)
	}
	benchmarkDecode(b, issues, func(i *gh.Issue) sdk.Record { return issueRecord(i, "o/r", "updated") })
}

// BenchmarkDecodePullRequests is BenchmarkDecodeIssues for 100 pull requests.
func BenchmarkDecodePullRequests(b *testing.B) {
	benchmarkDecode(b, fakes.GenerateGitHubRepo("o", "r", 0, 100).PullRequests,
		func(pr *gh.PullRequest) sdk.Record { return pullRequestRecord(pr, "o/r", "updated") })
}

func benchmarkDecode[In, Out any](b *testing.B, page []In, record func(*Out) sdk.Record) {
	body, err := json.Marshal(page)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var items []*Out
		if err := json.Unmarshal(body, &items); err != nil {
			b.Fatal(err)
		}
		for _, it := range items {
			_ = record(it)
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkRevalidate measures a repeated fetch of 1,000 issues answered by
// 304s from the ETag cache: requests that cost no rate limit.
func BenchmarkRevalidate(b *testing.B) {
	h := newHarness(b, nil)
	h.fake.Repo = fakes.GenerateGitHubRepo("octo-org", "octo-repo", 1000, 1000)
	req := sdk.FetchRequest{Kind: sdk.KindIssue}
	if _, err := h.fetch(b, req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		err := h.source.Fetch(context.Background(), req, func(sdk.Record) error { total++; return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "records/s")
}
