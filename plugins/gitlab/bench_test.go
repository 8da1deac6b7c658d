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
	body, err := json.Marshal(fakesProject(100).Commits)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var commits []*gl.Commit
		if err := json.Unmarshal(body, &commits); err != nil {
			b.Fatal(err)
		}
		for _, c := range commits {
			_ = commitRecord(c, "group/sub/app", "")
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkDecodeReleases is BenchmarkDecodeCommits for one page of 100
// releases with their commits, assets and links.
func BenchmarkDecodeReleases(b *testing.B) {
	body, err := json.Marshal(fakes.GenerateGitLabReleases(fakesProject(100), 100))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var releases []*gl.Release
		if err := json.Unmarshal(body, &releases); err != nil {
			b.Fatal(err)
		}
		for _, rel := range releases {
			_ = releaseRecord(rel, "group/sub/app")
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
}
