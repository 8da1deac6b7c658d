package plugin_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func agent(name, ref string) plugin.Spec {
	return plugin.Spec{Name: name, Kind: plugin.KindAgent, Ref: ref}
}

func withConfig(s plugin.Spec, config string) plugin.Spec {
	s.Config = json.RawMessage(config)
	return s
}

// call makes one successful call on the spec "kind/name".
func call(t *testing.T, m *plugin.Manager, spec string) {
	t.Helper()
	kind, name, _ := strings.Cut(spec, "/")
	var err error
	if kind == "agent" {
		_, err = m.Invoke(context.Background(), name, sdk.InvokeRequest{Role: sdk.RoleWriter})
	} else {
		err = m.Fetch(context.Background(), name, fetchN(1, ""), collect(new([]sdk.Record)))
	}
	require.NoError(t, err, spec)
}

// started counts the plugin processes the manager logged ready.
func started(logs *logBuffer) int { return strings.Count(logs.String(), `"plugin ready"`) }

// handshakes counts the plugin processes that completed the handshake,
// ready or not, by go-plugin's debug line.
func handshakes(logs *logBuffer) int { return strings.Count(logs.String(), `"using plugin"`) }

func TestSpecsShareAProcessPerPluginAndConfig(t *testing.T) {
	tests := []struct {
		name  string
		specs []plugin.Spec
		same  [][]string // groups of specs served by one process, one process per group
	}{
		{"agents of every role with one plugin and config",
			[]plugin.Spec{agent("analyst", "builtin:echo"), agent("critic", "builtin:echo"), agent("writer", "builtin:echo")},
			[][]string{{"agent/analyst", "agent/critic", "agent/writer"}}},
		{"no config and an empty config are the same",
			[]plugin.Spec{source("gitlab", "builtin:echo"), withConfig(source("generic", "builtin:echo"), `{}`)},
			[][]string{{"source/gitlab", "source/generic"}}},
		{"sources with one config",
			[]plugin.Spec{withConfig(source("gitlab", "builtin:echo"), `{"path":"."}`), withConfig(source("generic", "builtin:echo"), `{"path":"."}`)},
			[][]string{{"source/gitlab", "source/generic"}}},
		{"a different config is another process",
			[]plugin.Spec{withConfig(agent("writer", "builtin:echo"), `{"model":"a"}`), withConfig(agent("critic", "builtin:echo"), `{"model":"b"}`)},
			[][]string{{"agent/writer"}, {"agent/critic"}}},
		{"a source and an agent of one plugin are two processes",
			[]plugin.Spec{source("docs", "builtin:echo"), agent("writer", "builtin:echo")},
			[][]string{{"source/docs"}, {"agent/writer"}}},
		{"another config directory is another process",
			[]plugin.Spec{source("a", "builtin:echo"), {Name: "b", Kind: plugin.KindSource, Ref: "builtin:echo", ConfigDir: t.TempDir()}},
			[][]string{{"source/a"}, {"source/b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, logs := newManager(t, plugin.Options{}, tt.specs...)
			for _, group := range tt.same {
				for _, spec := range group {
					call(t, m, spec)
				}
			}
			pids := m.PIDs()
			seen := map[int]bool{}
			for _, group := range tt.same {
				pid := pids[group[0]]
				require.NotZero(t, pid, group[0])
				assert.False(t, seen[pid], "%s shares a process with another group", group[0])
				seen[pid] = true
				for _, spec := range group[1:] {
					assert.Equal(t, pid, pids[spec], "%s shares %s's process", spec, group[0])
				}
			}
			assert.Equal(t, len(tt.same), started(logs), "one start per process")
		})
	}
}

// A crash of a shared process fails the calls running on it, each naming
// its own spec; the next call of any sharing spec starts it again.
func TestCrashOfASharedProcess(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("a", "builtin:echo"), source("b", "builtin:echo"))
	call(t, m, "source/a")
	old := m.PIDs()["source/a"]

	streaming := make(chan struct{})
	resume := make(chan struct{})
	bErr := make(chan error, 1)
	go func() {
		first := true
		bErr <- m.Fetch(context.Background(), "b", fetchN(1_000_000, ""), func(sdk.Record) error {
			if first {
				first = false
				close(streaming)
				<-resume
			}
			return nil
		})
	}()
	<-streaming
	err := m.Fetch(context.Background(), "a", fetchN(1, queryCrash), collect(new([]sdk.Record)))
	require.ErrorIs(t, err, sdk.ErrUnavailable)
	assert.Contains(t, err.Error(), "plugin a (builtin:echo) exited unexpectedly")
	close(resume)
	err = <-bErr
	require.ErrorIs(t, err, sdk.ErrUnavailable)
	assert.Contains(t, err.Error(), "plugin b (builtin:echo): Fetch failed because the process was stopped: it exited unexpectedly")

	call(t, m, "source/b")
	pids := m.PIDs()
	assert.NotEqual(t, old, pids["source/b"], "a new process")
	assert.Equal(t, pids["source/b"], pids["source/a"], "still shared")
}

// A call past one spec's deadline kills the shared process; the deadline
// is that spec's, and the other spec's next call restarts the process.
func TestDeadlinesStayPerSpec(t *testing.T) {
	slow := source("slow", "builtin:echo")
	slow.Timeout = 200 * time.Millisecond
	m, _ := newManager(t, plugin.Options{}, slow, source("patient", "builtin:echo"))
	call(t, m, "source/patient")
	old := m.PIDs()["source/patient"]

	err := m.Fetch(context.Background(), "slow", fetchN(1, queryHang), collect(new([]sdk.Record)))
	require.ErrorIs(t, err, sdk.ErrDeadline)
	assert.Contains(t, err.Error(), "plugin slow (builtin:echo): Fetch did not finish within its deadline (200ms)")

	call(t, m, "source/patient")
	assert.NotEqual(t, old, m.PIDs()["source/patient"])
}

// A rejected config is rejected for every spec sharing it, after one start
// and one Configure, each error naming its own spec.
func TestRejectedConfigFailsEverySharingSpecOnce(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"error diagnostics", `{"base_url":"ftp://x","legacy":true}`, `rejected its config: config.base_url: not a URL: got "ftp://x"`},
		{"Configure's bad-config error", `[1]`, ": Configure: config: json: cannot unmarshal array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, logs := newManager(t, plugin.Options{},
				withConfig(source("a", "builtin:echo"), tt.config), withConfig(source("b", "builtin:echo"), tt.config))
			for range 2 {
				for _, name := range []string{"a", "b"} {
					err := m.Fetch(context.Background(), name, fetchN(1, ""), collect(new([]sdk.Record)))
					require.ErrorIs(t, err, sdk.ErrBadConfig)
					assert.Contains(t, err.Error(), "plugin "+name+" (builtin:echo)")
					assert.Contains(t, err.Error(), tt.want)
				}
			}
			assert.Empty(t, m.PIDs())
			assert.Equal(t, 1, handshakes(logs), "one start")
			if strings.Contains(tt.config, "legacy") {
				assert.Equal(t, 1, strings.Count(logs.String(), "config warning"), "one Configure")
			}
		})
	}
}
