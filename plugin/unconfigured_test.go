package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnconfiguredSourceFailsFastWithoutAProcess(t *testing.T) {
	// The executable leaves a mark when anything runs it: nothing may.
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	exe := filepath.Join(dir, "nous")
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\ntouch "+mark+"\nexit 1\n"), 0o755))

	tests := []struct {
		name string
		spec plugin.Spec
		want string
	}{
		{"with setup", plugin.Spec{Name: "youtrack", Kind: plugin.KindSource,
			Setup: "set YOUTRACK_URL and YOUTRACK_TOKEN (or GITLAB_TOKEN to use GitLab issues)"},
			`source "youtrack" is not configured: set YOUTRACK_URL and YOUTRACK_TOKEN (or GITLAB_TOKEN to use GitLab issues)`},
		{"trailing period dropped", plugin.Spec{Name: "jira", Kind: plugin.KindSource, Setup: " set JIRA_TOKEN. "},
			`source "jira" is not configured: set JIRA_TOKEN`},
		{"without setup", plugin.Spec{Name: "tracker", Kind: plugin.KindSource},
			`source "tracker" is not configured: its rules name no plugin`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{Executable: exe}, tt.spec)
			var got []sdk.Record
			err := m.Fetch(context.Background(), tt.spec.Name, sdk.FetchRequest{Kind: "issue"}, collect(&got))
			require.Error(t, err)
			assert.EqualError(t, err, tt.want)
			assert.Equal(t, sdk.KindBadConfig, sdk.KindOf(err))
			assert.ErrorIs(t, err, sdk.ErrBadConfig)
			assert.Empty(t, got)

			_, err = m.CheckConfig(context.Background(), plugin.KindSource, tt.spec.Name)
			assert.EqualError(t, err, tt.want, "lint --plugins gets the same answer")
		})
	}
	assert.NoFileExists(t, mark, "no process was started")
}

func TestRecordKindFillsRequestsThatNameNone(t *testing.T) {
	spec := source("issues", "builtin:echo")
	spec.RecordKind = "issue"
	m, _ := newManager(t, plugin.Options{}, spec)
	for _, tt := range []struct{ asked, want string }{{"", "issue"}, {"commit", "commit"}} {
		var got []sdk.Record
		require.NoError(t, m.Fetch(context.Background(), "issues", sdk.FetchRequest{Kind: tt.asked}, collect(&got)))
		require.Len(t, got, 1)
		assert.Equal(t, tt.want, got[0].Fields["requested_kind"], "asked for %q", tt.asked)
	}
}

// BenchmarkFetchUnconfigured measures the fast failure of a source with no
// plugin: no process, no I/O.
func BenchmarkFetchUnconfigured(b *testing.B) {
	m, _ := newManager(b, plugin.Options{}, plugin.Spec{Name: "youtrack", Kind: plugin.KindSource, Setup: "set YOUTRACK_TOKEN"})
	ctx := context.Background()
	emit := func(sdk.Record) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Fetch(ctx, "youtrack", sdk.FetchRequest{}, emit); err == nil {
			b.Fatal("an unconfigured source answered")
		}
	}
}
