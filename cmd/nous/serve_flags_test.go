package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Limits that cannot mean what they say are usage errors naming the flag;
// --queue 0 is no queue, not the default.
func TestServeLimits(t *testing.T) {
	for _, tt := range []struct {
		name       string
		runs, queu int
		want       string // the error, "" for none
		wantQueue  int
	}{
		{"defaults", server.DefaultMaxRuns, server.DefaultQueue, "", server.DefaultQueue},
		{"no queue", 1, 0, "", server.NoQueue},
		{"no runs", 0, 4, "--max-runs 0: want 1 or more", 0},
		{"negative runs", -1, 4, "--max-runs -1", 0},
		{"negative queue", 2, -1, "--queue -1: want 0 (no queue) or more", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := server.Config{MaxRuns: tt.runs, Queue: tt.queu}
			err := serveLimits(&cfg)
			if tt.want != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				assert.Equal(t, exitUsage, exitCode(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantQueue, cfg.Queue)
		})
	}
	t.Run("the command exits 2", func(t *testing.T) {
		for _, args := range [][]string{{"--max-runs", "0"}, {"--queue", "-3"}} {
			var out, errb bytes.Buffer
			code := run(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), &out, &errb)
			assert.Equal(t, exitUsage, code, errb.String())
			assert.Contains(t, errb.String(), args[0])
		}
	})
}

func exitCode(err error) int {
	if e, ok := err.(*exitError); ok {
		return e.Code
	}
	return -1
}

func TestServeTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	good := write("good", "  s3cret-tok\n")
	for _, tt := range []struct {
		name  string
		token string // --token, "" when not given
		file  string
		env   string
		want  string // the token
		err   string
	}{
		{"the file, trimmed", "", good, "from-env", "s3cret-tok", ""},
		{"the environment", "", "", "from-env", "from-env", ""},
		{"the flag", "flag-tok", "", "from-env", "flag-tok", ""},
		{"not both flags", "flag-tok", good, "", "", "--token and --token-file: give one of them"},
		{"missing", "", filepath.Join(dir, "nosuch"), "", "", "no such file"},
		{"empty", "", write("empty", " \n\t\n"), "", "", "is empty"},
		{"too large", "", write("large", strings.Repeat("x", maxTokenFile+1)), "", "", "larger than 4096 bytes"},
		{"two lines", "", write("lines", "a-secret\nb-secret\n"), "", "", "more than one line"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := &app{getenv: func(k string) string {
				if k == server.EnvToken {
					return tt.env
				}
				return ""
			}}
			cfg := server.Config{Token: tt.token}
			err := a.serveToken(&cfg, tt.token != "", tt.file)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.Contains(t, err.Error(), "--token")
				assert.NotContains(t, err.Error(), "secret", "the file's content is not quoted")
				assert.Equal(t, exitUsage, exitCode(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, cfg.Token)
		})
	}
}

// The URL printed at start has the host as given and the port listened on.
func TestServeURL(t *testing.T) {
	for _, tt := range []struct{ addr, listened, want string }{
		{"0.0.0.0:7878", "[::]:7878", "http://0.0.0.0:7878"},
		{"127.0.0.1:0", "127.0.0.1:41234", "http://127.0.0.1:41234"},
		{"localhost:7878", "127.0.0.1:7878", "http://localhost:7878"},
		{"[::1]:7878", "[::1]:7878", "http://[::1]:7878"},
		{":7878", "[::]:7878", "http://0.0.0.0:7878"},
	} {
		t.Run(tt.addr, func(t *testing.T) {
			ln, err := net.ResolveTCPAddr("tcp", tt.listened)
			require.NoError(t, err)
			assert.Equal(t, tt.want, serveURL(tt.addr, ln))
		})
	}
}
