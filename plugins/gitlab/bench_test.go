package gitlab

import (
	"context"
	"encoding/json"
	"testing"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/plugins/fakes"
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

// BenchmarkFetchReleases is BenchmarkFetchCommits for 1,000 releases.
func BenchmarkFetchReleases(b *testing.B) {
	benchmarkKind(b, sdk.KindRelease, 1000)
}

func benchmarkKind(b *testing.B, kind string, n int) {
	h := newHarness(b, nil)
	h.fake.Project = fakesProject(n)
	h.fake.Project.Releases = fakes.GenerateGitLabReleases(h.fake.Project, n)
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

// BenchmarkDecodeCommits isolates decoding: one page of 100 commits with
// stats as GitLab sends it, decoded by the client's types and mapped to
// records, no HTTP.
func BenchmarkDecodeCommits(b *testing.B) {
	benchDecode(b, fakesProject(100).Commits, func(c *gl.Commit) sdk.Record { return commitRecord(c, "group/sub/app", "") })
}

// BenchmarkDecodeReleases is BenchmarkDecodeCommits for one page of 100
// releases with their commits, assets and links.
func BenchmarkDecodeReleases(b *testing.B) {
	benchDecode(b, fakes.GenerateGitLabReleases(fakesProject(100), 100), func(rel *gl.Release) sdk.Record { return releaseRecord(rel, "group/sub/app") })
}

// benchDecode measures decoding page, encoded as GitLab sends it, into the
// client's type T and mapping each item to a record.
func benchDecode[T any](b *testing.B, page any, record func(*T) sdk.Record) {
	body, err := json.Marshal(page)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var items []*T
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
