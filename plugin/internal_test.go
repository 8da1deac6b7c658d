package plugin

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchPathOrder(t *testing.T) {
	env := map[string]string{
		EnvPluginDir: "/env/a" + string(filepath.ListSeparator) + "/env/b",
		"HOME":       "/home/ana",
	}
	got := SearchPath([]string{"/flag"}, func(k string) string { return env[k] })
	assert.Equal(t, []string{"/flag", "/env/a", "/env/b", filepath.Join(".nous", "plugins"), "/home/ana/.nous/plugins"}, got)
}

func TestRefName(t *testing.T) {
	tests := map[string]string{
		"builtin:gitlab":                 "gitlab",
		"jsonl":                          "jsonl",
		"./bin/nous-plugin-jira":         "jira",
		"/opt/plugins/custom-source-bin": "custom-source-bin",
	}
	for ref, want := range tests {
		assert.Equal(t, want, refName(ref), ref)
	}
}

func TestNormalizePin(t *testing.T) {
	hex := strings.Repeat("ab", 32)
	tests := []struct {
		pin, want, err string
	}{
		{hex, hex, ""},
		{strings.ToUpper(hex), hex, ""},
		{"sha256:" + hex, hex, ""},
		{"  " + hex + "\n", hex, ""},
		{"abc", "", "is not 64 hex digits"},
		{strings.Repeat("zz", 32), "", "is not 64 hex digits"},
	}
	for _, tt := range tests {
		got, err := normalizePin(tt.pin)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.pin)
			continue
		}
		require.NoError(t, err, tt.pin)
		assert.Equal(t, tt.want, got)
	}
}

func TestHostLoggerRedactsAndDemotes(t *testing.T) {
	var buf bytes.Buffer
	base := hclog.New(&hclog.LoggerOptions{Output: &buf, Level: hclog.Trace, JSONFormat: true})
	l := &hostLogger{Logger: base, redact: redact.New("s3cr3t"), demote: true, muteNamed: true}
	l.Error("using s3cr3t", "token", "s3cr3t")
	l.Named("stderr").Error("dropped")
	l.With("k", "s3cr3t").Info("with")
	out := buf.String()
	assert.NotContains(t, out, "s3cr3t")
	assert.NotContains(t, out, "dropped")
	assert.NotContains(t, out, `"@level":"error"`, "demoted to debug")
	assert.Equal(t, 2, strings.Count(out, `"@level":"debug"`))
}

// A plugin's JSON log line may carry a secret inside an object or a list
// field; re-emitted by the host, it is masked there too.
func TestPluginLogMasksNestedFields(t *testing.T) {
	var buf bytes.Buffer
	base := hclog.New(&hclog.LoggerOptions{Output: &buf, Level: hclog.Trace, JSONFormat: true})
	pl := &pluginLog{logger: &hostLogger{Logger: base, redact: redact.New("s3cr3t")}}
	pl.line(`{"@level":"info","@message":"request","headers":{"PRIVATE-TOKEN":"s3cr3t"},"args":["--token","s3cr3t"]}`)
	out := buf.String()
	assert.NotContains(t, out, "s3cr3t")
	assert.Contains(t, out, `"headers":{"PRIVATE-TOKEN":"[REDACTED]"}`)
	assert.Contains(t, out, `"args":["--token","[REDACTED]"]`)
}

func TestPluginLogLines(t *testing.T) {
	var buf bytes.Buffer
	logger := hclog.New(&hclog.LoggerOptions{Name: "nous.gl", Output: &buf, Level: hclog.Trace, JSONFormat: true})
	pl := &pluginLog{logger: logger}
	w := &lineWriter{fn: pl.record}
	// go-plugin writes a line and its newline separately.
	for _, chunk := range []string{
		`{"@level":"warn","@message":"slow page","@module":"gitlab","@timestamp":"2026-11-22T10:00:00Z","page":3}`, "\n",
		"plain text\r\n",
		"panic: boom\n", "\n", "goroutine 1 [running]:\n",
	} {
		_, err := w.Write([]byte(chunk))
		require.NoError(t, err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 4)
	assert.Contains(t, lines[0], `"@level":"warn","@message":"slow page","@module":"nous.gl"`)
	assert.Contains(t, lines[0], `"page":3`)
	assert.Contains(t, lines[1], `"@level":"debug","@message":"plain text"`)
	assert.Contains(t, lines[2], `"@level":"error","@message":"panic: boom"`)
	assert.Contains(t, lines[3], `"@level":"error","@message":"goroutine 1 [running]:"`)
	assert.Equal(t, "panic: boom", pl.crashNote())
}

func TestCrashNote(t *testing.T) {
	tests := []struct {
		lines []string
		want  string
	}{
		{nil, "no output on stderr"},
		{[]string{"loading", "open config.json: no such file"}, `last stderr line: open config.json: no such file (earlier: "loading")`},
		{[]string{`{"@level":"error","@message":"cannot listen"}`}, "last log line: cannot listen"},
		{[]string{"fatal error: concurrent map writes", "", "goroutine 9"}, "fatal error: concurrent map writes"},
	}
	for _, tt := range tests {
		pl := &pluginLog{logger: hclog.NewNullLogger()}
		for _, l := range tt.lines {
			pl.line(l)
		}
		assert.Equal(t, tt.want, pl.crashNote())
	}
}

func TestExplainStart(t *testing.T) {
	pl := &pluginLog{logger: hclog.NewNullLogger()}
	pl.line("nous: no built-in plugin \"x\"")
	tests := []struct {
		err, want string
	}{
		{"incompatible API version with plugin. Plugin version: 3, Client versions: [1 2]", "plugin p (ref) speaks nous plugin protocol 3 but this nous speaks protocol 1, 2: upgrade nous"},
		{"incompatible core API version with plugin. Plugin version: 2, Core version: 1\n\nTo fix this…", "plugin p (ref) speaks go-plugin core protocol 2 but this nous speaks 1"},
		{"Unrecognized remote plugin message: hello world\nThis usually means…", `plugin p (ref) wrote to stdout outside the handshake: "hello world"; plugins must log to stderr`},
		{"Unrecognized remote plugin message: \nFailed to read any lines from plugin's stdout", `plugin p (ref) exited before the handshake: last stderr line: nous: no built-in plugin "x"`},
		{"plugin exited before we could connect", `plugin p (ref) exited before the handshake: last stderr line: nous: no built-in plugin "x"`},
		{"timeout while waiting for plugin to start", "plugin p (ref) did not complete the handshake in time"},
		{"fork/exec /x: permission denied", "starting plugin p (ref): fork/exec /x: permission denied"},
	}
	for _, tt := range tests {
		got := explainStart("p (ref)", errors.New(tt.err), pl, []int{1, 2})
		assert.Contains(t, got.Error(), tt.want)
	}
}

func FuzzPluginLogLine(f *testing.F) {
	for _, s := range []string{
		`{"@level":"info","@message":"hi","k":1}`,
		`{"@level":"nonsense","@message":3}`,
		`{"@message":"x","nested":{"a":[1,2]}}`,
		"panic: x", "{", "", "\x00\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		pl := &pluginLog{logger: hclog.New(&hclog.LoggerOptions{Output: &bytes.Buffer{}, JSONFormat: true})}
		w := &lineWriter{fn: pl.record}
		_, err := w.Write([]byte(line + "\n"))
		require.NoError(t, err)
		assert.NotEmpty(t, pl.crashNote())
	})
}
