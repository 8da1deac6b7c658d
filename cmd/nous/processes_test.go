package main

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pluginReady matches the debug line of each plugin process started, with
// the specs it serves.
var pluginReady = regexp.MustCompile(`plugin ready: .* serves=(?:"([^"]*)"|(\S+))`)

// startedPlugins runs the CLI with debug logs and lists, per plugin process
// it started, the specs the process served.
func startedPlugins(t *testing.T, args ...string) []string {
	t.Helper()
	t.Setenv(envLogLevel, "debug")
	t.Setenv(envNow, askNow)
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	require.Equal(t, exitOK, code, errb.String())
	var served []string
	for _, m := range pluginReady.FindAllStringSubmatch(errb.String(), -1) {
		served = append(served, m[1]+m[2])
	}
	sort.Strings(served)
	return served
}

// The default rules start one process per distinct plugin and config: a
// question about the repository's week needs the git source (serving the
// logical sources gitlab and generic) and the template agent (every role),
// a question about usage the docs source instead of git; a fetch starts its
// source only, and a plan nothing.
func TestDefaultsStartOneProcessPerPlugin(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z"})
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"ask", "what changed in this repository last week?"},
			[]string{"analyst, critic, writer, clarification, validator", "gitlab, generic"}},
		{[]string{"ask", "how do I use completions?"},
			[]string{"analyst, critic, writer, clarification, validator", "docs"}},
		{[]string{"fetch", "generic"}, []string{"gitlab, generic"}},
		{[]string{"plan", "what changed in this repository last week?"}, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			assert.Equal(t, tt.want, startedPlugins(t, tt.args...))
		})
	}
}
