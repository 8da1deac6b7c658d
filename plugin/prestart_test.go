package plugin_test

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var _ engine.Starter = (*plugin.Manager)(nil)

// children lists this process's live child processes.
func children(t *testing.T) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		t.Skip("no /proc to list child processes")
	}
	me := strconv.Itoa(os.Getpid())
	var out []int
	for _, path := range stats {
		stat, err := os.ReadFile(path)
		if err != nil {
			continue // exited meanwhile
		}
		// After the parenthesized command name: state, then the parent.
		i := bytes.LastIndexByte(stat, ')')
		fields := bytes.Fields(stat[i+1:])
		if len(fields) < 2 || string(fields[1]) != me {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if processAlive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

func TestPrestartStartsEachSharedProcessOnce(t *testing.T) {
	m, logs := newManager(t, plugin.Options{},
		source("gitlab", "builtin:echo"), source("generic", "builtin:echo"),
		plugin.Spec{Name: "youtrack", Kind: plugin.KindSource}, // not configured
		withConfig(source("unused", "builtin:echo"), `{"other":true}`),
		agent("analyst", "builtin:echo"), agent("writer", "builtin:echo"))
	m.Prestart(context.Background(), []string{"gitlab", "generic", "youtrack", "undeclared"}, []string{"analyst", "writer"})
	require.True(t, waitFor(t, 10*time.Second, func() bool { return len(m.PIDs()) == 4 }), "started: %v", m.PIDs())
	assert.Equal(t, 2, started(logs), "one source process, one agent process")
	assert.NotContains(t, m.PIDs(), "source/unused")

	for _, spec := range []string{"source/generic", "source/gitlab", "agent/writer", "agent/analyst"} {
		call(t, m, spec)
	}
	assert.Equal(t, 2, started(logs), "calls use the prestarted processes")
	m.Prestart(context.Background(), []string{"gitlab"}, []string{"writer"})
	require.NoError(t, m.Close())
	assert.Equal(t, 2, started(logs), "running processes are not started again")
}

func TestPrestartThenCloseLeavesNoProcess(t *testing.T) {
	tests := []struct {
		name string
		ref  string
		wait bool   // for the processes to be ready before Close
		line string // a line of each plugin's to wait for before Close
	}{
		{"ready", "builtin:echo", true, ""},
		{"starting", "builtin:echo", false, ""},
		{"stuck in the handshake", "builtin:mute", false, "mute: waiting for a license server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, logs := newManager(t, plugin.Options{StartTimeout: time.Minute}, source("a", tt.ref), withConfig(source("b", tt.ref), `{"n":1}`))
			m.Prestart(context.Background(), []string{"a", "b"}, nil)
			if tt.wait {
				require.True(t, waitFor(t, 10*time.Second, func() bool { return len(m.PIDs()) == 2 }))
			}
			if tt.line != "" {
				waitLogged(t, logs, tt.line, 2)
			}
			require.NoError(t, m.Close())
			assert.Empty(t, children(t), "no plugin process outlives Close")
			err := m.Fetch(context.Background(), "a", fetchN(1, ""), collect(new([]sdk.Record)))
			assert.ErrorContains(t, err, "the plugin host is shut down")
		})
	}
}

// A prestart that fails fails the first call with the error it would have
// met starting the plugin itself, named after the spec it used.
func TestPrestartErrorsSurfaceOnTheFirstCall(t *testing.T) {
	tests := []struct {
		name  string
		specs []plugin.Spec
		first string        // the spec whose call comes first
		start time.Duration // the start timeout; 0 means a minute
	}{
		{"exits before the handshake", []plugin.Spec{source("a", "builtin:exit")}, "source/a", 0},
		{"no such plugin", []plugin.Spec{source("a", "nope")}, "source/a", 0},
		{"rejected config", []plugin.Spec{withConfig(source("a", "builtin:echo"), `{"base_url":"ftp://x"}`)}, "source/a", 0},
		{"never completes the handshake", []plugin.Spec{source("a", "builtin:mute")}, "source/a", 2 * time.Second},
		{"serves no agent", []plugin.Spec{agent("writer", "builtin:source-only")}, "agent/writer", 0},
		{"another spec of the process calls first",
			[]plugin.Spec{source("a", "builtin:exit"), source("b", "builtin:exit")}, "source/b", 0},
		{"another spec of a rejecting process calls first",
			[]plugin.Spec{withConfig(source("a", "builtin:echo"), `[1]`), withConfig(source("b", "builtin:echo"), `[1]`)}, "source/b", 0},
	}
	firstCall := func(m *plugin.Manager, spec string) error {
		kind, name, _ := strings.Cut(spec, "/")
		if kind == "agent" {
			_, err := m.Invoke(context.Background(), name, sdk.InvokeRequest{Role: sdk.RoleWriter})
			return err
		}
		return m.Fetch(context.Background(), name, fetchN(1, ""), collect(new([]sdk.Record)))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := plugin.Options{StartTimeout: cmp.Or(tt.start, time.Minute), Builtins: []string{"echo", "exit", "mute", "source-only"}}
			plain, _ := newManager(t, opts, tt.specs...)
			want := firstCall(plain, tt.first)
			require.Error(t, want)

			m, _ := newManager(t, opts, tt.specs...)
			var sources, agents []string
			for _, s := range tt.specs {
				if s.Kind == plugin.KindAgent {
					agents = append(agents, s.Name)
				} else {
					sources = append(sources, s.Name)
				}
			}
			m.Prestart(context.Background(), sources, agents)
			got := firstCall(m, tt.first)
			require.Error(t, got)
			assert.Equal(t, want.Error(), got.Error())
			assert.Equal(t, sdk.KindOf(want), sdk.KindOf(got))
		})
	}
}

// A prestart abandoned with its context leaves nothing behind: the first
// call starts the plugin itself.
func TestAbandonedPrestartLeavesTheStartToTheCall(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("a", "builtin:echo"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.Prestart(ctx, []string{"a"}, nil)
	call(t, m, "source/a")
	assert.NotZero(t, m.PIDs()["source/a"])
}

// Prestart looks at a running process without starting anything, but a
// process that died is not running: Prestart starts it again.
func TestPrestartRestartsACrashedProcess(t *testing.T) {
	m, logs := newManager(t, plugin.Options{}, source("a", "builtin:echo"))
	call(t, m, "source/a")
	first := m.PIDs()["source/a"]
	require.NotZero(t, first)
	m.Prestart(context.Background(), []string{"a"}, nil)
	assert.Equal(t, first, m.PIDs()["source/a"], "a running process is left as it is")

	proc, err := os.FindProcess(first)
	require.NoError(t, err)
	require.NoError(t, proc.Kill())
	require.True(t, waitFor(t, 10*time.Second, func() bool {
		m.Prestart(context.Background(), []string{"a"}, nil)
		pid := m.PIDs()["source/a"]
		return pid != 0 && pid != first
	}), "a prestart after the crash starts the plugin again")
	assert.Equal(t, 2, started(logs))
	call(t, m, "source/a")
	assert.Equal(t, 2, started(logs), "the call uses the prestarted process")
}
