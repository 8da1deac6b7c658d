package git

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGroundReportsTheOriginRemote sets the origin of a real repository
// with `git remote add` and reads it back through the plugin protocol.
func TestGroundReportsTheOriginRemote(t *testing.T) {
	const token = "ghp_T0kenThatMustNeverShow"
	tests := []struct {
		origin string // "" adds no origin
		want   *sdk.Remote
		name   string // Coverage.Name
	}{
		{"https://github.com/acme/shop.git", &sdk.Remote{Host: "github.com", Path: "acme/shop", Kind: sdk.RemoteGitHub}, "acme/shop"},
		{"git@gitlab.com:acme/platform/shop.git", &sdk.Remote{Host: "gitlab.com", Path: "acme/platform/shop", Kind: sdk.RemoteGitLab}, "acme/platform/shop"},
		{"ssh://git@git.acme.example:2222/team/shop.git", &sdk.Remote{Host: "git.acme.example", Path: "team/shop"}, "team/shop"},
		{"https://x-access-token:" + token + "@github.com/acme/shop", &sdk.Remote{Host: "github.com", Path: "acme/shop", Kind: sdk.RemoteGitHub}, "acme/shop"},
		{"/srv/git/shop.git", nil, ""},
		{"", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			dir := t.TempDir()
			var s stream
			s.commit("main", "Alice Liddell <alice@example.com>", day(1, 1), "c1", 0, nil, file("README.md", "# shop\n"))
			importRepo(t, dir, &s)
			if tt.origin != "" {
				runGit(t, dir, nil, "remote", "add", "origin", tt.origin)
			}
			src := sdktest.Source(t, New())
			ctx := context.Background()
			diags, err := src.Configure(ctx, json.RawMessage(pathConfig(dir)))
			require.NoError(t, err)
			require.False(t, diags.HasErrors())

			resp, err := sdktest.Ground(ctx, src, sdk.GroundRequest{Terms: []sdk.Term{
				{Kind: sdk.TermProject, Value: "shop"}, {Kind: sdk.TermPath, Value: "README.md"},
			}})
			require.NoError(t, err)
			assert.Equal(t, tt.want, resp.Coverage.Remote)
			if tt.name == "" {
				tt.name = dirBase(dir)
			}
			assert.Equal(t, tt.name, resp.Coverage.Name)

			recs, err := sdktest.Collect(ctx, src, sdk.FetchRequest{})
			require.NoError(t, err)
			_, fetchErr := sdktest.Collect(ctx, src, sdk.FetchRequest{Filters: map[string][]string{"ref": {"nope"}}})
			require.Error(t, fetchErr)
			ground, err := json.Marshal(resp)
			require.NoError(t, err)
			records, err := json.Marshal(recs)
			require.NoError(t, err)
			for _, out := range []string{string(ground), string(records), fetchErr.Error(), fmt.Sprint(diags)} {
				assert.NotContains(t, out, "T0ken")
			}
		})
	}
}
