package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	sdkplugin "github.com/nous-dev/nous/sdk/plugin"
	"github.com/stretchr/testify/require"
)

// Test plugins: the test binary started through a symlink named
// nous-plugin-MODE serves the plugin MODE instead of running tests.

// crashAfter is how many records the crashing source sends before it dies.
const crashAfter = 5

// crashExitCode is the crashing source's exit status.
const crashExitCode = 7

// testPluginMode reports which test plugin os.Args[0] names, if any.
func testPluginMode(arg0 string) (string, bool) {
	return strings.CutPrefix(filepath.Base(arg0), "nous-plugin-")
}

// serveTestPlugin serves the test plugin mode and never returns.
func serveTestPlugin(mode string) {
	switch mode {
	case "crashing":
		sdkplugin.Serve(sdkplugin.Config{Source: crashingSource{}})
	case "hanging":
		sdkplugin.Serve(sdkplugin.Config{Source: hangingSource{}})
	case "once-hanging":
		sdkplugin.Serve(sdkplugin.Config{Source: &onceHangingSource{}})
	default:
		fmt.Fprintf(os.Stderr, "unknown test plugin mode %q\n", mode)
		os.Exit(2)
	}
	os.Exit(0)
}

// testPlugin links the test binary as nous-plugin-mode in a fresh
// directory and returns the link's path.
func testPlugin(t *testing.T, mode string) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	link := filepath.Join(t.TempDir(), "nous-plugin-"+mode)
	require.NoError(t, os.Symlink(exe, link))
	return link
}

// crashingSource sends crashAfter commits of last week, then the process
// exits with crashExitCode in the middle of the stream.
type crashingSource struct{}

func (crashingSource) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{Name: "crashing", Version: "0.0.1", Kinds: []string{sdk.KindCommit}}, nil
}

func (crashingSource) Configure(context.Context, json.RawMessage) (sdk.Diagnostics, error) {
	return nil, nil
}

func (crashingSource) Fetch(_ context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	for i := range crashAfter {
		err := emit(sdk.Record{ID: fmt.Sprintf("c%d", i), Kind: sdk.KindCommit, Title: fmt.Sprintf("Commit %d", i),
			Author: "Alice Chen", Time: time.Date(2026, 11, 3+i, 10, 0, 0, 0, time.UTC)})
		if err != nil {
			return err
		}
	}
	// The records go out in a chunk once it is a few milliseconds old;
	// give it ample time to reach the host, then die mid-stream.
	time.Sleep(time.Second)
	os.Exit(crashExitCode)
	return nil
}

// hangingSource answers every fetch only when the fetch is cancelled.
type hangingSource struct{}

func (hangingSource) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{Name: "hanging", Version: "0.0.1", Kinds: []string{sdk.KindCommit}}, nil
}

func (hangingSource) Configure(context.Context, json.RawMessage) (sdk.Diagnostics, error) {
	return nil, nil
}

func (hangingSource) Fetch(ctx context.Context, _ sdk.FetchRequest, _ func(sdk.Record) error) error {
	<-ctx.Done()
	return ctx.Err()
}

// onceHangingSource hangs on the first fetch any of its processes makes
// (the one that creates the directory taken under its config's dir) until
// the fetch is cancelled or the process killed; every later fetch answers
// crashAfter commits of the week before askNow.
type onceHangingSource struct{ dir string }

func (*onceHangingSource) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{Name: "once-hanging", Version: "0.0.1", Kinds: []string{sdk.KindCommit}}, nil
}

func (s *onceHangingSource) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var c struct{ Dir string }
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	s.dir = c.Dir
	return nil, nil
}

func (s *onceHangingSource) Fetch(ctx context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	if os.Mkdir(filepath.Join(s.dir, "taken"), 0o755) == nil {
		<-ctx.Done()
		return ctx.Err()
	}
	for i := range crashAfter {
		err := emit(sdk.Record{ID: fmt.Sprintf("c%d", i), Kind: sdk.KindCommit, Title: fmt.Sprintf("Commit %d", i),
			Author: "Alice Chen", Time: time.Date(2026, 11, 3+i, 10, 0, 0, 0, time.UTC)})
		if err != nil {
			return err
		}
	}
	return nil
}
