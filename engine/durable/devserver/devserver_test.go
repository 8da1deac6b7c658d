package devserver

import (
	"cmp"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
)

func TestStartServesAndCleanupStops(t *testing.T) {
	// Two servers one after the other; '#' in their temporary directories'
	// names must not cut their database paths short to one shared file.
	for _, name := range []string{"server#1", "server#2"} {
		var srv *Server
		t.Run(name, func(t *testing.T) {
			srv = Start(t)
			assert.Equal(t, "default", srv.Namespace)
			c, err := client.Dial(client.Options{HostPort: srv.HostPort, Namespace: srv.Namespace, Logger: quietLogger()})
			require.NoError(t, err)
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			assert.NoError(t, err)
		})
		if srv == nil {
			t.Skip("no dev server was started")
		}
		// The subtest's cleanup has run: the process must be reaped and its
		// port closed.
		require.NotNil(t, srv.cmd.ProcessState, "the dev server was not waited for")
		conn, err := net.DialTimeout("tcp", srv.HostPort, 2*time.Second)
		if err == nil {
			conn.Close()
		}
		assert.Error(t, err, "the frontend port still accepts connections")
		if runtime.GOOS == "linux" {
			assert.NoDirExists(t, filepath.Join("/proc", strconv.Itoa(srv.cmd.Process.Pid)))
		}
	}
}

func TestFindCLI(t *testing.T) {
	goExe, err := exec.LookPath("go")
	require.NoError(t, err)
	goDir := filepath.Dir(goExe)
	dir := t.TempDir()
	gopath := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(gopath, "bin"), 0o755))
	inGopath := filepath.Join(gopath, "bin", exeName("temporal"))
	require.NoError(t, os.WriteFile(inGopath, []byte("#!/bin/sh\n"), 0o755))
	exe := filepath.Join(dir, exeName("temporal"))
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755))
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, nil, 0o644))

	tests := []struct {
		name     string
		env      string // NOUS_TEMPORAL_CLI
		path     string // PATH
		gobin    string // GOBIN
		gopath   string // GOPATH
		want     string
		wantErr  string
		unixOnly bool
	}{
		{name: "env wins", env: exe, path: "", want: exe},
		{name: "env missing file", env: filepath.Join(dir, "nope"), wantErr: "NOUS_TEMPORAL_CLI="},
		{name: "env directory", env: dir, wantErr: "is a directory"},
		{name: "env not executable", env: plain, wantErr: "is not executable", unixOnly: true},
		{name: "from PATH", path: dir + string(os.PathListSeparator) + goDir, want: exe},
		{name: "from GOBIN", path: goDir, gobin: dir, want: exe},
		{name: "from GOPATH/bin", path: goDir, gopath: gopath, want: inGopath},
		{name: "nowhere", path: goDir, gopath: dir, wantErr: filepath.Join(dir, "bin")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.unixOnly && runtime.GOOS == "windows" {
				t.Skip("no executable bit on windows")
			}
			t.Setenv("NOUS_TEMPORAL_CLI", tt.env)
			t.Setenv("PATH", tt.path)
			t.Setenv("GOBIN", tt.gobin)
			t.Setenv("GOPATH", cmp.Or(tt.gopath, t.TempDir()))
			got, err := findCLI()
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// recorder is a testing.TB that records Skip and Fatal instead of ending
// the goroutine.
type recorder struct {
	testing.TB
	skipped, fatal string
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = args[0].(string) }
func (r *recorder) Fatal(args ...any) { r.fatal = args[0].(string) }

func TestMissingCLISkipsUnlessRequired(t *testing.T) {
	tests := []struct {
		require  string
		wantSkip bool
	}{
		{require: "", wantSkip: true},
		{require: "0", wantSkip: true},
		{require: "1", wantSkip: false},
	}
	for _, tt := range tests {
		t.Run("NOUS_REQUIRE_TEMPORAL="+tt.require, func(t *testing.T) {
			t.Setenv("NOUS_REQUIRE_TEMPORAL", tt.require)
			t.Setenv("NOUS_TEMPORAL_CLI", "")
			t.Setenv("PATH", "")
			t.Setenv("GOPATH", t.TempDir())
			t.Setenv("GOBIN", "")
			r := &recorder{}
			assert.Nil(t, Start(r))
			msg := r.fatal
			if tt.wantSkip {
				assert.Empty(t, r.fatal)
				msg = r.skipped
			} else {
				assert.Empty(t, r.skipped)
				assert.Contains(t, msg, "NOUS_REQUIRE_TEMPORAL=1")
			}
			assert.Contains(t, msg, "go install github.com/temporalio/cli/cmd/temporal@v1.5.1")
			assert.Contains(t, msg, "the temporal CLI is not in")
		})
	}
}

func TestServerEnvDropsTemporalSettings(t *testing.T) {
	got := serverEnv([]string{"HOME=/h", "TEMPORAL_ADDRESS=x:1", "TEMPORAL_PROFILE=p", "XTEMPORAL_Y=1"})
	assert.Equal(t, []string{"HOME=/h", "XTEMPORAL_Y=1"}, got)
}

func TestTailKeepsLastLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	require.NoError(t, os.WriteFile(p, []byte("a\nb\nc\nd\n"), 0o644))
	assert.Equal(t, "c\nd", tail(p, 2))
	assert.Equal(t, "a\nb\nc\nd", tail(p, 10))
	assert.Contains(t, tail(filepath.Join(t.TempDir(), "none"), 2), "no such file")
}

func TestFreePortsDiffer(t *testing.T) {
	ports, err := freePorts(3)
	require.NoError(t, err)
	assert.Len(t, ports, 3)
	assert.NotEqual(t, ports[0], ports[1])
	assert.NotEqual(t, ports[1], ports[2])
	assert.NotEqual(t, ports[0], ports[2])
}
