package main

import (
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAskShowsTheOriginRemote: the git source's origin, read from the
// repository, shows in the interpretation's coverage, and a token embedded
// in the origin URL appears in no output of any format.
func TestAskShowsTheOriginRemote(t *testing.T) {
	const token = "ghp_0riginT0kenNeverShown"
	withoutTokens(t)
	inRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"})
	askGit(t, ".", nil, "remote", "add", "origin", "https://x-access-token:"+token+"@github.com/acme/shop.git")

	for _, format := range []string{"json", "text", "markdown"} {
		t.Run(format, func(t *testing.T) {
			out, stderr, code := runAsk(t, "--format", format, "which commits were pushed last week?")
			require.Equal(t, 0, code, stderr)
			assert.NotContains(t, out+stderr, "T0ken")
			if format != "json" {
				return
			}
			var doc report.Document
			require.NoError(t, json.Unmarshal([]byte(out), &doc))
			require.NotNil(t, doc.Plan.Interpretation)
			src := doc.Plan.Interpretation.Sources
			require.NotEmpty(t, src)
			// The embedded defaults serve commits from the local repository.
			assert.Equal(t, &sdk.Remote{Host: "github.com", Path: "acme/shop", Kind: sdk.RemoteGitHub}, src[0].Coverage.Remote)
			assert.Equal(t, "acme/shop", src[0].Coverage.Name)
		})
	}
}
