package git

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGroundTheLastRelease: "the last release" is the tag `git describe
// --tags` finds, the first tagged commit in HEAD's history, not the newest
// tag of another branch.
func TestGroundTheLastRelease(t *testing.T) {
	const who = "Alice Liddell <alice@example.com>"
	var s stream
	c1 := s.commit("main", who, day(1, 1), "c1", 0, nil, file("a.txt", "1"))
	c2 := s.commit("main", who, day(2, 1), "c2", c1, nil, file("a.txt", "2"))
	side := s.commit("side", who, day(5, 1), "side", c2, nil, file("b.txt", "x"))
	c3 := s.commit("main", who, day(3, 1), "c3", c2, nil, file("a.txt", "3"))
	s.commit("main", who, day(4, 1), "c4", c3, nil, file("a.txt", "4"))
	s.tag("v1.0.0", c1, day(1, 2))
	s.lightTag("v1.1.0", c2)
	s.lightTag("v1.1.0-rc1", c2)
	s.tag("v9.0.0", side, day(5, 2))
	dir := t.TempDir()
	importRepo(t, dir, &s)

	src := sdktest.Source(t, New())
	ctx := context.Background()
	diags, err := src.Configure(ctx, json.RawMessage(pathConfig(dir)))
	require.NoError(t, err)
	require.False(t, diags.HasErrors())
	resp, err := sdktest.Ground(ctx, src, sdk.GroundRequest{Terms: []sdk.Term{
		{Kind: sdk.TermRef, Value: "last release"}, {Kind: sdk.TermRef, Value: "the Latest Tag"}, {Kind: sdk.TermRef, Value: "v1.0.0"},
	}})
	require.NoError(t, err)
	for _, g := range resp.Terms[:2] {
		assert.True(t, g.Known, g.Note)
		assert.Equal(t, []string{"v1.1.0"}, g.Canonical, "the greatest name on the first tagged commit of HEAD's history, not side's v9.0.0")
		assert.Equal(t, day(2, 1), g.Time.UTC())
		assert.Contains(t, g.Note, "the latest tag in the history of HEAD")
	}
	assert.Equal(t, []string{"v1.0.0"}, resp.Terms[2].Canonical, "named tags still ground as before")

	// The tag before a release, as `git describe --tags --abbrev=0 REF^`:
	// what the release brought is before..REF.
	resp, err = sdktest.Ground(ctx, src, sdk.GroundRequest{Terms: []sdk.Term{
		{Kind: sdk.TermRef, Value: sdk.RefBefore + "v1.1.0"}, {Kind: sdk.TermRef, Value: sdk.RefBefore + "last release"},
		{Kind: sdk.TermRef, Value: sdk.RefBefore + "v9.0.0"}, {Kind: sdk.TermRef, Value: sdk.RefBefore + "v1.0.0"},
		{Kind: sdk.TermRef, Value: sdk.RefBefore + "v7.0.0"},
	}})
	require.NoError(t, err)
	for i, want := range []string{"v1.0.0", "v1.0.0", "v1.1.0"} {
		g := resp.Terms[i]
		assert.True(t, g.Known, g.Note)
		assert.Equal(t, []string{want}, g.Canonical, "%s: rc1 shares v1.1.0's commit, so it is not before it", g.Value)
	}
	assert.Contains(t, resp.Terms[0].Note, "the tag before v1.1.0")
	first := resp.Terms[3]
	assert.True(t, first.Known, first.Note)
	assert.Equal(t, []string{""}, first.Canonical, "no tag before the first: its release is all of its history")
	assert.Contains(t, first.Note, "no tag before v1.0.0")
	assert.False(t, resp.Terms[4].Known)
	assert.Contains(t, resp.Terms[4].Note, `no tag or branch "v7.0.0" (the greatest tags: v9.0.0, v1.1.0, v1.1.0-rc1)`)

	// A two-part version no tag is named after is its .0 release.
	resp, err = sdktest.Ground(ctx, src, sdk.GroundRequest{Terms: []sdk.Term{
		{Kind: sdk.TermRef, Value: "v1.1"}, {Kind: sdk.TermRef, Value: "1.0"}, {Kind: sdk.TermRef, Value: sdk.RefBefore + "1.1"},
		{Kind: sdk.TermRef, Value: "v1.2"}, {Kind: sdk.TermRef, Value: "v9"},
	}})
	require.NoError(t, err)
	for i, want := range []string{"v1.1.0", "v1.0.0", "v1.0.0"} {
		assert.True(t, resp.Terms[i].Known, resp.Terms[i].Note)
		assert.Equal(t, []string{want}, resp.Terms[i].Canonical, resp.Terms[i].Value)
	}
	assert.False(t, resp.Terms[3].Known, "no v1.2.0 either")
	assert.False(t, resp.Terms[4].Known, "one part is no version")

	var bare stream
	bare.commit("main", who, day(1, 1), "c1", 0, nil, file("a.txt", "1"))
	dir = t.TempDir()
	importRepo(t, dir, &bare)
	src = sdktest.Source(t, New())
	_, err = src.Configure(ctx, json.RawMessage(pathConfig(dir)))
	require.NoError(t, err)
	resp, err = sdktest.Ground(ctx, src, sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermRef, Value: "latest release"}}})
	require.NoError(t, err)
	assert.False(t, resp.Terms[0].Known)
	assert.Equal(t, "the repository has no tags", resp.Terms[0].Note)
}
