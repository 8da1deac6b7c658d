package github

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
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

// BenchmarkRepeatedQuestion measures what the cache saves when a question
// is asked again: each round configures a fresh source (an empty cache),
// fetches the request once, then again within GitHub's max-age (fresh:
// requests sent), then once more after it (stale: requests sent, how many
// the fake answered 304, how many counted against a rate limit, core or
// search), beside the first fetch's requests and counted requests.
func BenchmarkRepeatedQuestion(b *testing.B) {
	since := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, bc := range []struct {
		name string
		req  sdk.FetchRequest
	}{
		{"issues", sdk.FetchRequest{Kind: sdk.KindIssue}},
		{"issues_by_milestone", sdk.FetchRequest{Kind: sdk.KindIssue, Filters: map[string][]string{"milestones": {"v1.1"}}}},
		{"pulls", sdk.FetchRequest{Kind: sdk.KindPullRequest}},
		{"pulls_merged_searched", sdk.FetchRequest{Kind: sdk.KindPullRequest, Since: since, Filters: map[string][]string{"date_field": {"merged"}, "labels": {"auth"}}}},
		{"commits", sdk.FetchRequest{Kind: sdk.KindCommit}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := newHarness(b, nil)
			h.fake.Repo = fakes.GenerateGitHubRepo("octo-org", "octo-repo", 1000, 1000)
			h.fake.Repo.Commits, _ = fakes.GenerateGitHubHistory("octo-org", "octo-repo", 1000, 0)
			h.fake.Limit, h.fake.SearchLimit = 1<<30, 1<<30
			h.fake.NewSearchWindow(time.Now().Add(24 * time.Hour))
			cfg := map[string]any{"base_url": h.server.URL, "token": testToken, "repo": testRepo}
			counted := func() int { return h.fake.Used(true) + h.fake.Searches(true) }
			var first, firstCounted, fresh, stale, notModified, limited int
			b.ReportAllocs()
			for b.Loop() {
				s := New(WithEnv(func(string) string { return "" }), WithRetry(h.waits.Policy()))
				plugintest.Configure(b, s, cfg)
				fetch := func() {
					if err := s.Fetch(context.Background(), bc.req, func(sdk.Record) error { return nil }); err != nil {
						b.Fatal(err)
					}
				}
				before, usedBefore := len(h.fake.Requests()), counted()
				fetch()
				first, firstCounted = first+len(h.fake.Requests())-before, firstCounted+counted()-usedBefore
				before = len(h.fake.Requests())
				fetch() // within GitHub's max-age
				fresh += len(h.fake.Requests()) - before
				s.cache.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
				before, n304, used := len(h.fake.Requests()), h.fake.NotModified(), counted()
				fetch() // once stale: revalidated
				stale += len(h.fake.Requests()) - before
				notModified += h.fake.NotModified() - n304
				limited += counted() - used
			}
			n := float64(b.N)
			b.ReportMetric(float64(first)/n, "first-requests/op")
			b.ReportMetric(float64(firstCounted)/n, "first-counted/op")
			b.ReportMetric(float64(fresh)/n, "fresh-repeat-requests/op")
			b.ReportMetric(float64(stale)/n, "stale-repeat-requests/op")
			b.ReportMetric(float64(notModified)/n, "stale-repeat-304s/op")
			b.ReportMetric(float64(limited)/n, "stale-repeat-counted/op")
		})
	}
}
