package plugin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/require"
)

// envHost makes the test binary a plugin host that starts the plugins named
// in it (comma-separated refs), prints their pids, and waits for a signal.
const envHost = "NOUS_PLUGIN_TEST_HOST"

func TestMain(m *testing.M) {
	if mode, ok := pluginMode(os.Args); ok {
		servePlugin(mode)
	}
	if refs := os.Getenv(envHost); refs != "" {
		os.Exit(runHost(strings.Split(refs, ",")))
	}
	code := m.Run()
	if exampleDir != "" {
		_ = os.RemoveAll(exampleDir)
	}
	os.Exit(code)
}

// runHost is a minimal nous-like host: plugins start, their pids go to
// stdout as one JSON line, and SIGINT/SIGTERM close the manager, the way
// the CLI does.
func runHost(refs []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	specs := make([]plugin.Spec, len(refs))
	for i, ref := range refs {
		specs[i] = plugin.Spec{Name: "s" + strconv.Itoa(i), Kind: plugin.KindSource, Ref: ref}
	}
	m, err := plugin.NewManager(plugin.Options{Executable: exe}, specs...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer m.Close()
	for _, s := range specs {
		if err := m.Fetch(ctx, s.Name, sdk.FetchRequest{}, func(sdk.Record) error { return nil }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(m.PIDs()); err != nil {
		return 1
	}
	pids := m.PIDs()
	<-ctx.Done()
	// Close, not the kernel's parent-death signal, must stop them: check
	// before this host exits.
	_ = m.Close()
	for name, pid := range pids {
		if processAlive(pid) {
			fmt.Fprintf(os.Stderr, "%s (pid %d) is still running after Close\n", name, pid)
			return 3
		}
	}
	return 0
}

// testExe is the path of this test binary, which serves the test plugins.
func testExe(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return exe
}

// pluginDir returns a directory holding nous-plugin-MODE links to the test
// binary for each mode.
func pluginDir(t testing.TB, modes ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, mode := range modes {
		require.NoError(t, os.Symlink(testExe(t), filepath.Join(dir, plugin.BinaryPrefix+mode)))
	}
	return dir
}

// logBuffer collects hclog JSON lines, safe for concurrent writers.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// entries decodes the logged lines.
func (b *logBuffer) entries(t testing.TB) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(b.String()) {
		var e map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &e), line)
		out = append(out, e)
	}
	return out
}

// waitFor polls cond until it holds or the time is up.
func waitFor(t testing.TB, within time.Duration, cond func() bool) bool {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}

// newManager builds a manager whose builtins are served by this test binary
// and whose logs land in the returned buffer. It is closed with the test.
func newManager(t testing.TB, opts plugin.Options, specs ...plugin.Spec) (*plugin.Manager, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	if opts.Executable == "" {
		opts.Executable = testExe(t)
	}
	if opts.Logger == nil {
		opts.Logger = hclog.New(&hclog.LoggerOptions{Name: "nous", Output: logs, JSONFormat: true, Level: hclog.Debug})
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	m, err := plugin.NewManager(opts, specs...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	return m, logs
}

// collect returns an emit func that appends to rs.
func collect(rs *[]sdk.Record) func(sdk.Record) error {
	return func(r sdk.Record) error {
		*rs = append(*rs, r)
		return nil
	}
}
