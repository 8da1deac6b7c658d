package template

import (
	"fmt"
	"time"

	"github.com/nous-dev/nous/sdk"
)

var day0 = time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC)

// fixtureRecords is a mixed evidence set: commits, issues, a merge request,
// a document, and one record from a low-tier source.
func fixtureRecords() []sdk.Record {
	return []sdk.Record{
		{ID: "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", Source: "gitlab", Kind: sdk.KindCommit, Title: "Fix token refresh race in payments client",
			URL: "https://gitlab.example.com/acme/payments/-/commit/3f2a9c1d", Author: "alice", Time: day0.Add(48 * time.Hour), Tier: 1,
			Fields: map[string]any{"project": "acme/payments"}},
		{ID: "9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c", Source: "gitlab", Kind: sdk.KindCommit, Title: "Add retry budget to webhook sender",
			URL: "https://gitlab.example.com/acme/payments/-/commit/9b8c7d6e", Author: "bob", Time: day0.Add(24 * time.Hour), Tier: 1,
			Fields: map[string]any{"project": "acme/payments"}},
		{ID: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b", Source: "gitlab", Kind: sdk.KindCommit, Title: "Bump go to 1.26",
			URL: "https://gitlab.example.com/acme/infra/-/commit/1a2b3c4d", Author: "alice", Time: day0, Tier: 1,
			Fields: map[string]any{"project": "acme/infra"}},
		{ID: "PAY-142", Source: "youtrack", Kind: sdk.KindIssue, Title: "Refunds stuck in pending", URL: "https://yt.example.com/issue/PAY-142",
			Author: "carol", Time: day0.Add(36 * time.Hour), Tier: 2, Fields: map[string]any{"project": "acme/payments"}},
		{ID: "acme/payments!77", Source: "gitlab", Kind: sdk.KindMergeRequest, Title: "Payments: idempotent refunds",
			URL: "https://gitlab.example.com/acme/payments/-/merge_requests/77", Author: "bob", Time: day0.Add(60 * time.Hour), Tier: 1,
			Fields: map[string]any{"project": "acme/payments"}},
		{ID: "docs/runbook.md", Source: "file", Kind: sdk.KindDocument, Body: "Payments runbook\nHow to replay webhooks.", Tier: 2},
		{ID: "reddit-t3_abc", Source: "reddit", Kind: sdk.KindDocument, Title: "Is ACME payments down?", URL: "https://reddit.example.com/r/acme/abc",
			Author: "someone", Time: day0.Add(50 * time.Hour), Tier: 5},
	}
}

// manyRecords makes n dated commits spread over authors and projects.
func manyRecords(n int) []sdk.Record {
	out := make([]sdk.Record, n)
	for i := range out {
		out[i] = sdk.Record{
			ID:     fmt.Sprintf("%08x%032x", uint32(i+1)*2654435761, i),
			Source: "gitlab", Kind: []string{sdk.KindCommit, sdk.KindIssue, sdk.KindMergeRequest}[i%3],
			Title:  fmt.Sprintf("Change number %d", i),
			URL:    fmt.Sprintf("https://gitlab.example.com/acme/p%d/-/commit/%d", i%4, i),
			Author: fmt.Sprintf("dev%d", i%5), Time: day0.Add(time.Duration(i) * time.Hour), Tier: 1 + i%2,
			Fields: map[string]any{"project": fmt.Sprintf("acme/p%d", i%4)},
		}
	}
	return out
}
