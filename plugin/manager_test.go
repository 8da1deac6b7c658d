package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The manager is what the executor calls.
var (
	_ engine.Sources = (*plugin.Manager)(nil)
	_ engine.Agents  = (*plugin.Manager)(nil)
)

func source(name, ref string) plugin.Spec {
	return plugin.Spec{Name: name, Kind: plugin.KindSource, Ref: ref}
}

func fetchN(n int, query string) sdk.FetchRequest {
	return sdk.FetchRequest{Query: query, Filters: map[string][]string{"n": {strconv.Itoa(n)}}}
}

func TestFetchThroughEveryKindOfReference(t *testing.T) {
	dir := pluginDir(t, "echo")
	tests := []struct {
		name string
		ref  string
	}{
		{"builtin re-executes the host binary", "builtin:echo"},
		{"name found in a plugin directory", "echo"},
		{"explicit path", filepath.Join(dir, "nous-plugin-echo")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{Dirs: []string{dir}}, source("docs", tt.ref))
			var rs []sdk.Record
			require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(3, "hello"), collect(&rs)))
			require.Len(t, rs, 3)
			for i, r := range rs {
				assert.Equal(t, "r"+strconv.Itoa(i), r.ID)
				assert.Equal(t, "hello", r.Title)
				assert.Equal(t, int64(i), r.Fields["index"])
			}
			pid := rs[0].Fields["pid"].(int64)
			assert.NotEqual(t, int64(os.Getpid()), pid, "the plugin runs in its own process")
			assert.Equal(t, int(pid), m.PIDs()["source/docs"])
		})
	}
}

func TestPluginDirFromEnvironment(t *testing.T) {
	dir := pluginDir(t, "echo")
	m, _ := newManager(t, plugin.Options{Getenv: func(k string) string {
		if k == plugin.EnvPluginDir {
			return dir
		}
		return ""
	}}, source("docs", "echo"))
	var rs []sdk.Record
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, ""), collect(&rs)))
	assert.Len(t, rs, 1)
}

func TestFetchStreamsManyRecords(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	const n = 10_000
	var rs []sdk.Record
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(n, "bulk"), collect(&rs)))
	require.Len(t, rs, n)
	for i, r := range rs {
		if !assert.Equal(t, "r"+strconv.Itoa(i), r.ID, "records arrive in order") {
			break
		}
	}
}

func TestFetchStopsWhenEmitFails(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	stop := errors.New("enough")
	seen := 0
	err := m.Fetch(context.Background(), "docs", fetchN(5000, ""), func(sdk.Record) error {
		seen++
		if seen == 10 {
			return stop
		}
		return nil
	})
	assert.ErrorIs(t, err, stop, "emit's error comes back as is")
	assert.Equal(t, 10, seen)
	var rs []sdk.Record
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(2, ""), collect(&rs)), "the plugin is still usable")
	assert.Len(t, rs, 2)
}

func TestInvokeWithSchema(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, plugin.Spec{
		Name: "writer", Kind: plugin.KindAgent, Ref: "builtin:echo",
		Config: json.RawMessage(`{"model":"echo-1"}`),
	})
	resp, err := m.Invoke(context.Background(), "writer", sdk.InvokeRequest{
		Role:         sdk.RoleWriter,
		Instructions: "Write the report.",
		Input:        json.RawMessage(`{"query":"what changed?","mode":"discovery"}`),
		Context:      []sdk.Record{{ID: "c1", Kind: sdk.KindCommit}, {ID: "c2", Kind: sdk.KindCommit}},
		Schema:       json.RawMessage(`{"type":"object","required":["final_report","confidence_level"]}`),
	})
	require.NoError(t, err)
	var out struct {
		FinalReport     string          `json:"final_report"`
		ConfidenceLevel string          `json:"confidence_level"`
		ContextIDs      []string        `json:"context_ids"`
		Input           json.RawMessage `json:"input"`
		Config          json.RawMessage `json:"config"`
	}
	require.NoError(t, json.Unmarshal(resp.Output, &out), string(resp.Output))
	assert.Equal(t, "writer:final_report", out.FinalReport)
	assert.Equal(t, "writer:confidence_level", out.ConfidenceLevel)
	assert.Equal(t, []string{"c1", "c2"}, out.ContextIDs)
	assert.JSONEq(t, `{"query":"what changed?","mode":"discovery"}`, string(out.Input))
	assert.JSONEq(t, `{"model":"echo-1"}`, string(out.Config), "Configure got the spec's config")
	assert.Equal(t, len("Write the report."), resp.Usage.PromptTokens)
	assert.Equal(t, "echo-1", resp.Usage.Model)
}

func TestConfigDiagnostics(t *testing.T) {
	m, logs := newManager(t, plugin.Options{},
		plugin.Spec{Name: "bad", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"base_url":"ftp://x"}`)},
		plugin.Spec{Name: "old", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"legacy":true}`)},
	)
	err := m.Fetch(context.Background(), "bad", fetchN(1, ""), collect(new([]sdk.Record)))
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
	assert.Equal(t, `plugin bad (builtin:echo) rejected its config: config.base_url: not a URL: got "ftp://x"`, err.Error())
	assert.Empty(t, m.PIDs()["source/bad"], "a plugin that rejects its config is not kept running")

	require.NoError(t, m.Fetch(context.Background(), "old", fetchN(1, ""), collect(new([]sdk.Record))), "warnings do not fail")
	assert.Contains(t, logs.String(), "config warning: config.legacy: legacy is ignored")
}

// TestRejectedConfigIsRemembered: a plugin that rejects its config is not
// started and configured again on every call (a Ground, then a Fetch), so
// its config warnings are logged once and every call gets the same error.
func TestRejectedConfigIsRemembered(t *testing.T) {
	m, logs := newManager(t, plugin.Options{},
		plugin.Spec{Name: "bad", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"base_url":"ftp://x","legacy":true}`)})
	first := m.Fetch(context.Background(), "bad", fetchN(1, ""), collect(new([]sdk.Record)))
	require.ErrorIs(t, first, sdk.ErrBadConfig)
	for range 2 {
		err := m.Fetch(context.Background(), "bad", fetchN(1, ""), collect(new([]sdk.Record)))
		require.ErrorIs(t, err, sdk.ErrBadConfig)
		assert.Equal(t, first.Error(), err.Error())
	}
	assert.Equal(t, 1, strings.Count(logs.String(), "config warning: config.legacy: legacy is ignored"), logs.String())
}

func TestVersionMismatchSaysWhoSpeaksWhat(t *testing.T) {
	tests := []struct {
		mode, want string
	}{
		{"oldproto", "plugin p (builtin:oldproto) speaks nous plugin protocol 0 but this nous speaks protocol 1: rebuild the plugin against the current github.com/nous-dev/nous/sdk"},
		{"newproto", "plugin p (builtin:newproto) speaks nous plugin protocol 2 but this nous speaks protocol 1: upgrade nous to a release that speaks protocol 2"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{}, source("p", "builtin:"+tt.mode))
			err := m.Fetch(context.Background(), "p", sdk.FetchRequest{}, collect(new([]sdk.Record)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestChecksumPin(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	script := filepath.Join(dir, "nous-plugin-script")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755))
	actual, err := plugin.FileSHA256(script)
	require.NoError(t, err)
	wrong := "0000000000000000000000000000000000000000000000000000000000000000"

	m, _ := newManager(t, plugin.Options{Dirs: []string{dir}},
		plugin.Spec{Name: "pinned", Kind: plugin.KindSource, Ref: "script", SHA256: wrong})
	err = m.Fetch(context.Background(), "pinned", sdk.FetchRequest{}, collect(new([]sdk.Record)))
	var ce *plugin.ChecksumError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, wrong, ce.Expected)
	assert.Equal(t, actual, ce.Actual)
	assert.Contains(t, err.Error(), "refusing to run "+script+": sha256 is "+actual+" but the rules pin "+wrong)
	assert.NoFileExists(t, marker, "a mismatching binary never runs")

	exeSum, err := plugin.FileSHA256(testExe(t))
	require.NoError(t, err)
	m2, _ := newManager(t, plugin.Options{}, plugin.Spec{Name: "ok", Kind: plugin.KindSource, Ref: "builtin:echo", SHA256: "sha256:" + exeSum})
	assert.NoError(t, m2.Fetch(context.Background(), "ok", fetchN(1, ""), collect(new([]sdk.Record))), "a builtin's pin applies to the nous binary")
}

func TestPanicInFetchFailsTheCallOnly(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	var rs []sdk.Record
	err := m.Fetch(context.Background(), "docs", fetchN(20, queryPanic), collect(&rs))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plugin docs (builtin:echo): Fetch:")
	assert.Contains(t, err.Error(), "echo: index out of range in record 7")
	pid := m.PIDs()["source/docs"]

	rs = nil
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(3, ""), collect(&rs)))
	assert.Len(t, rs, 3)
	assert.Equal(t, pid, m.PIDs()["source/docs"], "the sdk recovered; the process lives on")
}

func TestCrashMidStreamRestartsOnNextCall(t *testing.T) {
	m, logs := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, ""), collect(new([]sdk.Record))))
	first := m.PIDs()["source/docs"]
	require.NotZero(t, first)

	var rs []sdk.Record
	err := m.Fetch(context.Background(), "docs", fetchN(2000, queryCrash), collect(&rs))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plugin docs (builtin:echo) exited unexpectedly: panic: echo: corrupted state, giving up")
	assert.ErrorIs(t, err, sdk.ErrUnavailable)
	assert.False(t, processAlive(first))
	assert.Contains(t, logs.String(), "plugin exited unexpectedly")

	rs = nil
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(3, ""), collect(&rs)), "the next call restarts the plugin")
	assert.Len(t, rs, 3)
	second := m.PIDs()["source/docs"]
	assert.NotEqual(t, first, second)
}

func TestHungPluginIsKilledAtItsDeadline(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration // Spec.Timeout
		ctx     time.Duration // the caller's deadline
	}{
		{"spec timeout", 300 * time.Millisecond, 0},
		{"caller deadline", 0, 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{}, plugin.Spec{Name: "docs", Kind: plugin.KindSource, Ref: "builtin:echo", Timeout: tt.timeout})
			require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, ""), collect(new([]sdk.Record))))
			pid := m.PIDs()["source/docs"]

			ctx := context.Background()
			if tt.ctx > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.ctx)
				defer cancel()
			}
			err := m.Fetch(ctx, "docs", fetchN(1, queryHang), collect(new([]sdk.Record)))
			require.Error(t, err)
			assert.ErrorIs(t, err, sdk.ErrDeadline)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Contains(t, err.Error(), "plugin docs (builtin:echo): Fetch did not finish within its deadline")
			assert.Contains(t, err.Error(), "the plugin process was killed and restarts on the next call")
			assert.True(t, waitFor(t, 5*time.Second, func() bool { return !processAlive(pid) }), "the hung process is gone")

			var rs []sdk.Record
			require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(2, ""), collect(&rs)))
			assert.Len(t, rs, 2)
		})
	}
}

func TestStdoutOutsideTheHandshake(t *testing.T) {
	t.Run("before the handshake", func(t *testing.T) {
		m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:banner"))
		err := m.Fetch(context.Background(), "docs", sdk.FetchRequest{}, collect(new([]sdk.Record)))
		require.Error(t, err)
		assert.Contains(t, err.Error(), `plugin docs (builtin:banner) wrote to stdout outside the handshake: "echo plugin v1.2.3 starting"; plugins must log to stderr`)
	})
	t.Run("during a call", func(t *testing.T) {
		m, logs := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
		require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, queryStdout), collect(new([]sdk.Record))))
		want := `plugin docs (builtin:echo) wrote to stdout outside the handshake: "debug: fetching"; plugins must log to stderr`
		assert.True(t, waitFor(t, 5*time.Second, func() bool { return containsEntry(logs.entries(t), "error", want) }), logs.String())
	})
}

func containsEntry(entries []map[string]any, level, msg string) bool {
	for _, e := range entries {
		if e["@level"] == level && e["@message"] == msg {
			return true
		}
	}
	return false
}

func TestPluginLogsAreReemittedUnderItsName(t *testing.T) {
	m, logs := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, queryLog), collect(new([]sdk.Record))))
	var found map[string]any
	waitFor(t, 5*time.Second, func() bool {
		for _, e := range logs.entries(t) {
			if e["@message"] == "fetching page" {
				found = e
				return true
			}
		}
		return false
	})
	require.NotNil(t, found, logs.String())
	assert.Equal(t, "nous.docs", found["@module"])
	assert.Equal(t, "info", found["@level"])
	assert.EqualValues(t, 2, found["page"])
}

func TestSecretsAreRedacted(t *testing.T) {
	const token = "glpat-s3cr3t-t0ken"
	m, logs := newManager(t, plugin.Options{Redactor: redact.New(token)},
		plugin.Spec{Name: "gl", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"token":"` + token + `"}`)},
		plugin.Spec{Name: "misconfigured", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"base_url":"` + token + `"}`)},
	)
	tests := []struct {
		source string
		kind   error
	}{
		{"gl", sdk.ErrUnauthorized},         // an error from a call
		{"misconfigured", sdk.ErrBadConfig}, // a config diagnostic
	}
	for _, tt := range tests {
		err := m.Fetch(context.Background(), tt.source, fetchN(1, querySecret), collect(new([]sdk.Record)))
		require.Error(t, err)
		assert.NotContains(t, err.Error(), token)
		assert.Contains(t, err.Error(), "[REDACTED]")
		assert.ErrorIs(t, err, tt.kind, "the kind survives redaction")
	}
	assert.NotContains(t, logs.String(), token)
}

func TestConcurrentCallsShareOneProcess(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	const callers = 16
	pids := make([]int64, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			var rs []sdk.Record
			errs[i] = m.Fetch(context.Background(), "docs", fetchN(50, ""), collect(&rs))
			if len(rs) == 50 {
				pids[i] = rs[0].Fields["pid"].(int64)
			}
		})
	}
	wg.Wait()
	for i := range callers {
		require.NoError(t, errs[i])
		assert.Equal(t, pids[0], pids[i], "one process per spec")
	}
}

func TestUnusablePlugins(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "nous-plugin-plain")
	require.NoError(t, os.WriteFile(notExec, []byte("data"), 0o644))
	tests := []struct {
		name string
		opts plugin.Options
		spec plugin.Spec
		want []string
	}{
		{
			"unknown name lists where it looked",
			plugin.Options{Dirs: []string{dir}},
			source("x", "nope"),
			[]string{`source x: no plugin "nope": looked for nous-plugin-nope in ` + dir + ", .nous/plugins"},
		},
		{
			"unknown builtin lists the builtins",
			plugin.Options{Builtins: []string{"echo", "git"}},
			source("x", "builtin:gitlub"),
			[]string{`no built-in plugin "gitlub"; built-ins are: echo, git`},
		},
		{
			"a plugin that exits before the handshake shows its last words",
			plugin.Options{},
			source("x", "builtin:exit"),
			[]string{"plugin x (builtin:exit) exited before the handshake: last stderr line: echo: cannot open /nonexistent/config.json"},
		},
		{
			"a file that is not executable",
			plugin.Options{},
			source("x", notExec),
			[]string{"is not executable (chmod +x it)"},
		},
		{
			"a source-only plugin used as an agent",
			plugin.Options{},
			plugin.Spec{Name: "writer", Kind: plugin.KindAgent, Ref: "builtin:source-only"},
			[]string{`plugin writer (builtin:source-only) does not serve an agent, but the rules use it as agent "writer"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, tt.opts, tt.spec)
			var err error
			if tt.spec.Kind == plugin.KindAgent {
				_, err = m.Invoke(context.Background(), tt.spec.Name, sdk.InvokeRequest{Role: sdk.RoleWriter})
			} else {
				err = m.Fetch(context.Background(), tt.spec.Name, sdk.FetchRequest{}, collect(new([]sdk.Record)))
			}
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestBadSpecs(t *testing.T) {
	_, err := plugin.NewManager(plugin.Options{},
		source("a", "builtin:echo"), source("a", "builtin:echo"),
		plugin.Spec{Name: "b", Kind: plugin.KindAgent},
		plugin.Spec{Name: "c", Ref: "x"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `source "a" is declared twice`)
	assert.Contains(t, err.Error(), `agent "b" names no plugin`)
	assert.Contains(t, err.Error(), `plugin spec "c": unknown kind 0`)

	m, _ := newManager(t, plugin.Options{}, source("a", "builtin:echo"))
	err = m.Fetch(context.Background(), "zzz", sdk.FetchRequest{}, collect(new([]sdk.Record)))
	assert.EqualError(t, err, `no source named "zzz" is declared`)
}

// A start its caller gave up on before the process launched leaves no
// process behind: the kill that abandons it must reach a process the
// start launches after it.
func TestAbandonedStartLeavesNoProcess(t *testing.T) {
	tests := []struct {
		name  string
		start func(ctx context.Context, m *plugin.Manager) error
	}{
		{"call", func(ctx context.Context, m *plugin.Manager) error {
			return m.Fetch(ctx, "a", fetchN(1, ""), collect(new([]sdk.Record)))
		}},
		{"check", func(ctx context.Context, m *plugin.Manager) error {
			_, err := m.CheckConfig(ctx, plugin.KindAgent, "w")
			return err
		}},
		{"inspect", func(ctx context.Context, m *plugin.Manager) error {
			if info := m.Inspect(ctx, "builtin:echo", ""); info.Error != "" {
				return errors.New(info.Error)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{}, source("a", "builtin:echo"), agent("w", "builtin:echo"))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			for range 20 { // the start races with the kill: try it often
				require.ErrorContains(t, tt.start(ctx, m), "context canceled")
			}
			require.NoError(t, m.Close())
			left := children(t)
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL) // spare the tests that follow
			}
			assert.Empty(t, left, "no plugin process outlives an abandoned start")
		})
	}
}

func TestCloseLeavesNoProcessBehind(t *testing.T) {
	m, _ := newManager(t, plugin.Options{},
		source("a", "builtin:echo"), source("b", "builtin:echo"),
		plugin.Spec{Name: "w", Kind: plugin.KindAgent, Ref: "builtin:echo"})
	require.NoError(t, m.Fetch(context.Background(), "a", fetchN(1, ""), collect(new([]sdk.Record))))
	require.NoError(t, m.Fetch(context.Background(), "b", fetchN(1, ""), collect(new([]sdk.Record))))
	_, err := m.Invoke(context.Background(), "w", sdk.InvokeRequest{Role: sdk.RoleWriter})
	require.NoError(t, err)
	pids := m.PIDs()
	require.Len(t, pids, 3)

	require.NoError(t, m.Close())
	for name, pid := range pids {
		assert.False(t, processAlive(pid), "%s (pid %d) outlived Close", name, pid)
	}
	err = m.Fetch(context.Background(), "a", fetchN(1, ""), collect(new([]sdk.Record)))
	assert.ErrorContains(t, err, "the plugin host is shut down")
	assert.NoError(t, m.Close(), "Close is idempotent")
}

func TestHandshakeThatNeverCompletesIsKilledAtTheDeadline(t *testing.T) {
	tests := []struct {
		name string
		opts plugin.Options
		ctx  time.Duration
	}{
		{"start timeout", plugin.Options{StartTimeout: 500 * time.Millisecond}, 0},
		{"caller deadline", plugin.Options{}, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, tt.opts, source("docs", "builtin:mute"))
			ctx := context.Background()
			if tt.ctx > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.ctx)
				defer cancel()
			}
			err := m.Fetch(ctx, "docs", sdk.FetchRequest{}, collect(new([]sdk.Record)))
			require.Error(t, err)
			assert.ErrorIs(t, err, sdk.ErrDeadline)
			assert.Contains(t, err.Error(), "plugin docs (builtin:mute) did not complete the handshake in time and was killed")
			assert.Contains(t, err.Error(), "mute: waiting for a license server")
		})
	}
}

func TestCloseEndsCallsInFlight(t *testing.T) {
	m, logs := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, ""), collect(new([]sdk.Record))))
	pid := m.PIDs()["source/docs"]

	errc := make(chan error, 1)
	go func() {
		errc <- m.Fetch(context.Background(), "docs", fetchN(1, queryHang), collect(new([]sdk.Record)))
	}()
	waitLogged(t, logs, "hanging", 1) // the call reached the plugin
	require.NoError(t, m.Close())
	select {
	case err := <-errc:
		require.Error(t, err)
		assert.Contains(t, err.Error(), "plugin docs (builtin:echo): Fetch failed because the process was stopped: the plugin host is shutting down")
	case <-time.After(10 * time.Second):
		t.Fatal("a call in flight outlived Close")
	}
	assert.False(t, processAlive(pid))
}

func TestDeadlineKillFailsOtherCallsClearly(t *testing.T) {
	m, logs := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, ""), collect(new([]sdk.Record))))

	errc := make(chan error, 1)
	go func() {
		errc <- m.Fetch(context.Background(), "docs", fetchN(1, queryHang), collect(new([]sdk.Record)))
	}()
	waitLogged(t, logs, "hanging", 1) // the first call reached the plugin
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := m.Fetch(ctx, "docs", fetchN(1, queryHang), collect(new([]sdk.Record)))
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	select {
	case err := <-errc:
		assert.ErrorContains(t, err, "Fetch failed because the process was stopped: a Fetch call ran past its deadline")
	case <-time.After(10 * time.Second):
		t.Fatal("the other call did not end when its plugin was killed")
	}
}

func TestCheckConfigReturnsEveryDiagnostic(t *testing.T) {
	m, _ := newManager(t, plugin.Options{Redactor: redact.New("hunter2")},
		plugin.Spec{Name: "bad", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"base_url":"hunter2"}`)},
		plugin.Spec{Name: "old", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"legacy":1}`)},
		plugin.Spec{Name: "writer", Kind: plugin.KindAgent, Ref: "builtin:source-only"},
	)
	diags, err := m.CheckConfig(context.Background(), plugin.KindSource, "bad")
	require.NoError(t, err)
	assert.Equal(t, sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "not a URL", Detail: `got "[REDACTED]"`, Path: "base_url"}}, diags)

	diags, err = m.CheckConfig(context.Background(), plugin.KindSource, "old")
	require.NoError(t, err)
	assert.Equal(t, sdk.Diagnostics{{Severity: sdk.SeverityWarning, Summary: "legacy is ignored", Path: "legacy"}}, diags)

	_, err = m.CheckConfig(context.Background(), plugin.KindAgent, "writer")
	assert.ErrorContains(t, err, "does not serve an agent")
	assert.Empty(t, m.PIDs(), "checking starts no lasting process")
}

// Specs sharing a process share the check of their plugin and config.
func TestCheckConfigChecksASharedConfigOnce(t *testing.T) {
	config := json.RawMessage(`{"base_url":"ftp://x"}`)
	m, logs := newManager(t, plugin.Options{},
		plugin.Spec{Name: "a", Kind: plugin.KindSource, Ref: "builtin:echo", Config: config},
		plugin.Spec{Name: "b", Kind: plugin.KindSource, Ref: "builtin:echo", Config: config},
		plugin.Spec{Name: "c", Kind: plugin.KindSource, Ref: "builtin:echo"},
	)
	want := sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "not a URL", Detail: `got "ftp://x"`, Path: "base_url"}}
	for _, name := range []string{"a", "b", "a"} {
		diags, err := m.CheckConfig(context.Background(), plugin.KindSource, name)
		require.NoError(t, err)
		assert.Equal(t, want, diags, name)
	}
	diags, err := m.CheckConfig(context.Background(), plugin.KindSource, "c")
	require.NoError(t, err)
	assert.Empty(t, diags)
	assert.Equal(t, 2, handshakes(logs), "one check per plugin and config")
}

// waitLogged waits until msg has been logged at least n times.
func waitLogged(t *testing.T, logs *logBuffer, msg string, n int) {
	t.Helper()
	ok := waitFor(t, 30*time.Second, func() bool {
		count := 0
		for _, e := range logs.entries(t) {
			if e["@message"] == msg {
				count++
			}
		}
		return count >= n
	})
	require.True(t, ok, "%q was not logged %d times:\n%s", msg, n, logs)
}

func TestPluginKilledWhileIdleIsRestarted(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(1, ""), collect(new([]sdk.Record))))
	first := m.PIDs()["source/docs"]
	proc, err := os.FindProcess(first)
	require.NoError(t, err)
	require.NoError(t, proc.Kill()) // the OOM killer, an operator, …
	// Once go-plugin has reaped it, the manager no longer counts it as running.
	require.True(t, waitFor(t, 5*time.Second, func() bool { return m.PIDs()["source/docs"] == 0 }))

	var rs []sdk.Record
	require.NoError(t, m.Fetch(context.Background(), "docs", fetchN(2, ""), collect(&rs)))
	assert.Len(t, rs, 2)
	assert.NotEqual(t, first, m.PIDs()["source/docs"])
}

// A plugin that hangs before its handshake is killed, and the error quotes
// its last stderr line: that quote is masked like any other text, whether
// the start was for a call or for CheckConfig.
func TestHungHandshakeErrorIsRedacted(t *testing.T) {
	const secret = "license server" // what the mute plugin prints
	m, _ := newManager(t, plugin.Options{StartTimeout: 500 * time.Millisecond, Redactor: redact.New(secret)},
		source("docs", "builtin:mute"))
	checkErr := func() error {
		_, err := m.CheckConfig(context.Background(), plugin.KindSource, "docs")
		return err
	}
	fetchErr := func() error {
		return m.Fetch(context.Background(), "docs", sdk.FetchRequest{}, collect(new([]sdk.Record)))
	}
	for name, call := range map[string]func() error{"CheckConfig": checkErr, "Fetch": fetchErr} {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.Error(t, err)
			assert.ErrorIs(t, err, sdk.ErrDeadline)
			assert.NotContains(t, err.Error(), secret)
			assert.Contains(t, err.Error(), "mute: waiting for a [REDACTED]")
		})
	}
}

// A call waiting for another call's start of the same plugin gives up when
// its own context ends, rather than waiting out the other's start timeout.
func TestWaitingForAStartHonoursTheContext(t *testing.T) {
	m, logs := newManager(t, plugin.Options{StartTimeout: time.Minute}, source("docs", "builtin:mute"))
	first := make(chan error, 1)
	go func() {
		first <- m.Fetch(context.Background(), "docs", sdk.FetchRequest{}, collect(new([]sdk.Record)))
	}()
	// The first call is starting the plugin once it has printed its line.
	waitLogged(t, logs, "mute: waiting for a license server", 1)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := m.Fetch(ctx, "docs", sdk.FetchRequest{}, collect(new([]sdk.Record)))
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	assert.Contains(t, err.Error(), "plugin docs (builtin:mute)")
	select {
	case err := <-first:
		t.Fatalf("the first call ended before the second gave up: %v", err)
	default:
	}
	require.NoError(t, m.Close()) // ends the first call's start
	assert.Error(t, <-first)
}
