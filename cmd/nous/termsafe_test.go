package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTerminalSafe(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text untouched", "a\tb\nc — 中文\r\n", "a\tb\nc — 中文\r\n"},
		{"OSC title and bell", "\x1b]0;pwned\x07x", "\uFFFD]0;pwned\uFFFDx"},
		{"CSI colour", "\x1b[31mred", "\uFFFD[31mred"},
		{"lone carriage return", "shown\rhidden", "shown\uFFFDhidden"},
		{"DEL and NUL", "a\x7fb\x00c", "a\uFFFDb\uFFFDc"},
		{"C1 CSI in UTF-8", "a\u009b31mb", "a\uFFFD31mb"},
		{"Latin-1 supplement letters kept", "café ñ", "café ñ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			n, err := terminalSafe{&buf}.Write([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, len(tt.in), n, "reports the bytes it was given")
			assert.Equal(t, tt.want, buf.String())
		})
	}
}

// TestFetchAndAskTextNeutraliseEscapesFromRecords feeds a record whose title
// holds terminal escapes through the file source: text output must not pass
// them on, JSON keeps the data exactly.
func TestFetchAndAskTextNeutraliseEscapesFromRecords(t *testing.T) {
	dir := t.TempDir()
	row, err := json.Marshal(map[string]string{"id": "n1", "source": "news", "kind": "document",
		"title": "\x1b]52;c;cm0gLXJmIH4=\x07 price rise", "body": "electricity price rise", "time": "2026-11-02T04:30:00Z"})
	require.NoError(t, err)
	data := filepath.Join(dir, "news.jsonl")
	require.NoError(t, os.WriteFile(data, append(row, '\n'), 0o644))
	rulesFile := filepath.Join(dir, "nous.hcl")
	require.NoError(t, os.WriteFile(rulesFile, []byte(`
source "news" {
  plugin = "builtin:file"
  config = { path = "`+filepath.ToSlash(data)+`" }
}
intent "fallback" {
  hypothesis "retrieve" {
    description = "Retrieve news"
    action      = "retrieve"
  }
  retrieve "news" {
    description = "Retrieve news"
    source      = "news"
  }
}
`), 0o644))

	code, out, stderr := nous(t, "", "--rules", rulesFile, "fetch", "news")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "\uFFFD]52;c;cm0gLXJmIH4=\uFFFD price rise")
	assert.NotContains(t, out, "\x1b")

	code, out, stderr = nous(t, "", "--rules", rulesFile, "fetch", "news", "--format", "jsonl")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `\u001b]52;c;cm0gLXJmIH4=\u0007 price rise`, "JSON escapes, losing nothing")

	for _, format := range []string{"text", "markdown"} {
		_, out, stderr = nous(t, "", "--rules", rulesFile, "ask", "--format", format, "electricity price rise")
		assert.NotContains(t, out, "\x1b", format)
		assert.NotContains(t, out, "\x07", format)
		assert.Contains(t, out, "\uFFFD]52;c;cm0gLXJmIH4=\uFFFD price rise", "%s: %s", format, stderr)
	}
}
