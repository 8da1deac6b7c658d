//go:build unix

package devserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fatalRecorder is t, except that Fatalf is recorded instead of ending the
// test.
type fatalRecorder struct {
	*testing.T
	fatal string
}

func (r *fatalRecorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

func TestStartRetriesOnlyALostPortRace(t *testing.T) {
	tests := []struct {
		name     string
		output   string // what the fake CLI says before exiting 1
		wantRuns int
	}{
		{name: "port taken", output: "Error: can't set frontend port 1: address already in use", wantRuns: launchAttempts},
		{name: "other failure", output: "Error: failed starting server: boom", wantRuns: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cli := filepath.Join(dir, "temporal")
			script := fmt.Sprintf("#!/bin/sh\necho run >> %q\necho %q >&2\nexit 1\n", filepath.Join(dir, "runs"), tt.output)
			require.NoError(t, os.WriteFile(cli, []byte(script), 0o755))
			t.Setenv("NOUS_TEMPORAL_CLI", cli)

			r := &fatalRecorder{T: t}
			assert.Nil(t, Start(r))
			assert.Contains(t, r.fatal, cli+" server start-dev did not become healthy")
			assert.Contains(t, r.fatal, "exited before becoming healthy")
			runs, err := os.ReadFile(filepath.Join(dir, "runs"))
			require.NoError(t, err)
			assert.Equal(t, tt.wantRuns, strings.Count(string(runs), "run\n"))
		})
	}
}
