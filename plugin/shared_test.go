package plugin_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// configured is a source spec with config.
func configured(name, ref, config string) plugin.Spec {
	s := source(name, ref)
	s.Config = json.RawMessage(config)
	return s
}

// pidOf fetches from the source named name and returns the pid of the
// process that served it.
func pidOf(t *testing.T, m *plugin.Manager, name string) int {
	t.Helper()
	var rs []sdk.Record
	require.NoError(t, m.Fetch(context.Background(), name, fetchN(1, ""), collect(&rs)))
	require.Len(t, rs, 1)
	return int(rs[0].Fields["pid"].(int64))
}

// TestSharedProcessesFollowTheirConfig builds the Manager of a first
// ruleset, then of a second in which one source's config changed: the
// unchanged source keeps its process, the changed one gets a new process,
// and each old process stops when its last Manager is closed.
func TestSharedProcessesFollowTheirConfig(t *testing.T) {
	shared := plugin.NewProcesses()
	opts := plugin.Options{Shared: shared}
	first, _ := newManager(t, opts,
		configured("kept", "builtin:echo", `{"token":"a"}`),
		configured("changed", "builtin:echo", `{"token":"b"}`))
	kept, changed := pidOf(t, first, "kept"), pidOf(t, first, "changed")
	require.NotEqual(t, kept, changed, "different configs run apart")

	// The second ruleset renames the kept source: its name is no part of
	// what makes the process.
	second, _ := newManager(t, opts,
		configured("renamed", "builtin:echo", `{"token":"a"}`),
		configured("changed", "builtin:echo", `{"token":"c"}`))
	assert.Equal(t, kept, pidOf(t, second, "renamed"), "an unchanged config keeps its process")
	fresh := pidOf(t, second, "changed")
	assert.NotEqual(t, changed, fresh, "a changed config gets a process of its own")
	assert.True(t, processAlive(changed), "the first Manager still uses the old process")
	assert.Equal(t, changed, pidOf(t, first, "changed"), "the first Manager keeps its own")

	require.NoError(t, first.Close())
	assert.False(t, processAlive(changed), "the old process stopped with its last Manager")
	assert.True(t, processAlive(kept), "the second Manager still uses the kept process")
	assert.Equal(t, kept, pidOf(t, second, "renamed"))

	require.NoError(t, second.Close())
	for _, pid := range []int{kept, fresh} {
		assert.False(t, processAlive(pid), "pid %d outlived every Manager", pid)
	}
}

// TestSharedProcessStartsAgainAfterItsLastManager: once every Manager using
// a process is closed, the next Manager starts a new one.
func TestSharedProcessStartsAgainAfterItsLastManager(t *testing.T) {
	shared := plugin.NewProcesses()
	first, _ := newManager(t, plugin.Options{Shared: shared}, source("docs", "builtin:echo"))
	old := pidOf(t, first, "docs")
	require.NoError(t, first.Close())
	require.False(t, processAlive(old))

	second, _ := newManager(t, plugin.Options{Shared: shared}, source("docs", "builtin:echo"))
	assert.NotEqual(t, old, pidOf(t, second, "docs"))
}

// TestSharedRejectedSpecsReleaseTheirProcesses: a Manager that NewManager
// refuses uses no process, so the process stops with the Manager that does.
func TestSharedRejectedSpecsReleaseTheirProcesses(t *testing.T) {
	shared := plugin.NewProcesses()
	m, _ := newManager(t, plugin.Options{Shared: shared}, source("docs", "builtin:echo"))
	pid := pidOf(t, m, "docs")
	_, err := plugin.NewManager(plugin.Options{Shared: shared, Executable: testExe(t)},
		source("docs", "builtin:echo"), source("docs", "builtin:echo"))
	require.ErrorContains(t, err, `source "docs" is declared twice`)
	require.NoError(t, m.Close())
	assert.False(t, processAlive(pid))
}

// TestSharedManagersCloseConcurrently closes Managers sharing one process
// while calls run on them: every call on an open Manager succeeds and no
// process is left.
func TestSharedManagersCloseConcurrently(t *testing.T) {
	shared := plugin.NewProcesses()
	const n = 8
	ms := make([]*plugin.Manager, n)
	for i := range ms {
		ms[i], _ = newManager(t, plugin.Options{Shared: shared}, source("docs", "builtin:echo"))
	}
	pid := pidOf(t, ms[0], "docs")
	var wg sync.WaitGroup
	for _, m := range ms {
		wg.Go(func() {
			assert.Equal(t, pid, pidOf(t, m, "docs"))
			assert.NoError(t, m.Close())
		})
	}
	wg.Wait()
	assert.False(t, processAlive(pid))
}

func TestSharedCountsCallsFailuresAndRestarts(t *testing.T) {
	shared := plugin.NewProcesses()
	first, _ := newManager(t, plugin.Options{Shared: shared}, source("docs", "builtin:echo"))
	pidOf(t, first, "docs")
	err := first.Fetch(context.Background(), "docs", fetchN(2000, queryCrash), collect(new([]sdk.Record)))
	require.ErrorIs(t, err, sdk.ErrUnavailable)
	pidOf(t, first, "docs") // restarts it

	second, _ := newManager(t, plugin.Options{Shared: shared},
		source("docs", "builtin:echo"), plugin.Spec{Name: "w", Kind: plugin.KindAgent, Ref: "builtin:echo"},
		plugin.Spec{Name: "issues", Kind: plugin.KindSource, Setup: "set YOUTRACK_TOKEN"})
	pidOf(t, second, "docs")
	_, err = second.Invoke(context.Background(), "w", sdk.InvokeRequest{Role: sdk.RoleWriter})
	require.NoError(t, err)
	err = second.Fetch(context.Background(), "issues", fetchN(1, ""), collect(new([]sdk.Record)))
	require.ErrorContains(t, err, "set YOUTRACK_TOKEN", "a call that never reaches a process fails too")

	assert.Equal(t, map[plugin.SpecName]plugin.Counts{
		{Kind: plugin.KindSource, Name: "docs"}:   {Calls: 4, Failures: 1, Restarts: 1},
		{Kind: plugin.KindAgent, Name: "w"}:       {Calls: 1},
		{Kind: plugin.KindSource, Name: "issues"}: {Calls: 1, Failures: 1},
	}, shared.Counts(), "counts span the Managers of successive rulesets")
}
