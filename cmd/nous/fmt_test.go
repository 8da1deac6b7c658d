package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/rules"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	unformatted = "source \"s\" {\nplugin=\"x\"\n    priority = 10\n}\n"
	formatted   = "source \"s\" {\n  plugin   = \"x\"\n  priority = 10\n}\n"
	unparseable = "source \"s\" {\n  plugin =\n"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o600))
	}
	return dir
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

func TestFmtCheck(t *testing.T) {
	dir := writeFiles(t, map[string]string{"ok.hcl": formatted, "sub/bad.hcl": unformatted})
	code, out, stderr := runCLI(t, "", "fmt", "-check", dir)
	assert.Equal(t, exitFindings, code, stderr)
	assert.Equal(t, filepath.Join(dir, "sub", "bad.hcl")+"\n", out)
	assert.Equal(t, unformatted, read(t, filepath.Join(dir, "sub", "bad.hcl")), "-check never writes")
}

func TestFmtWrite(t *testing.T) {
	dir := writeFiles(t, map[string]string{"ok.hcl": formatted, "bad.hcl": unformatted})
	code, out, stderr := runCLI(t, "", "fmt", "-w", dir)
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, filepath.Join(dir, "bad.hcl")+"\n", out)
	assert.Equal(t, formatted, read(t, filepath.Join(dir, "bad.hcl")))
	info, err := os.Stat(filepath.Join(dir, "bad.hcl"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "permissions are kept")

	code, _, _ = runCLI(t, "", "fmt", "-check", dir)
	assert.Equal(t, exitOK, code)
}

func TestFmtNeverRewritesUnparseableFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{"broken.hcl": unparseable, "bad.hcl": unformatted})
	code, _, stderr := runCLI(t, "", "fmt", "-w", dir)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "broken.hcl")
	assert.Contains(t, stderr, "line 2")
	assert.Equal(t, unparseable, read(t, filepath.Join(dir, "broken.hcl")))
	assert.Equal(t, formatted, read(t, filepath.Join(dir, "bad.hcl")), "the other files are still formatted")
}

func TestFmtPrints(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.hcl": unformatted})
	code, out, _ := runCLI(t, "", "fmt", filepath.Join(dir, "bad.hcl"))
	assert.Equal(t, exitOK, code)
	assert.Equal(t, formatted, out)
	assert.Equal(t, unformatted, read(t, filepath.Join(dir, "bad.hcl")))

	code, out, _ = runCLI(t, unformatted, "fmt", "-")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, formatted, out)
}

func TestFmtCheckStdin(t *testing.T) {
	code, out, _ := runCLI(t, unformatted, "fmt", "-check", "-")
	assert.Equal(t, exitFindings, code, "-check on stdin is honoured, not ignored")
	assert.Equal(t, "<stdin>\n", out)

	code, out, _ = runCLI(t, formatted, "fmt", "-check", "-")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, out)

	code, _, stderr := runCLI(t, unformatted, "fmt", "-w", "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "-w cannot rewrite standard input")
}

func TestFmtStdinIsCapped(t *testing.T) {
	// /dev/zero piped in must be an input error, not an out-of-memory crash.
	var out, errOut bytes.Buffer
	zeros := io.LimitReader(zeroReader{}, rules.MaxSourceSize+1)
	code := run([]string{"fmt", "-"}, zeros, &out, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut.String(), "read <stdin>: larger than 32 MiB")
	assert.Empty(t, out.String())
}

func TestFmtReportsAFailedWrite(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.hcl": unformatted})
	var errOut bytes.Buffer
	code := run([]string{"fmt", filepath.Join(dir, "a.hcl")}, strings.NewReader(""), failingWriter{}, &errOut)
	assert.Equal(t, exitUsage, code, "a lost output is not success")
	assert.Contains(t, errOut.String(), "fmt: writing output: disk full")
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestFmtUsageErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"r.hcl.json": "{}"})
	for name, args := range map[string][]string{
		"check and write": {"fmt", "-check", "-w", dir},
		"missing path":    {"fmt", filepath.Join(dir, "nope.hcl")},
		"json syntax":     {"fmt", filepath.Join(dir, "r.hcl.json")},
		"unknown flag":    {"fmt", "-bogus", dir},
		"endless file":    {"fmt", "/dev/zero"},
	} {
		t.Run(name, func(t *testing.T) {
			code, _, _ := runCLI(t, "", args...)
			assert.Equal(t, exitUsage, code)
		})
	}
}

func TestFmtFlagSpellings(t *testing.T) {
	for _, flag := range []string{"-check", "--check", "-check=true"} {
		t.Run(flag, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"bad.hcl": unformatted})
			code, _, _ := runCLI(t, "", "fmt", flag, dir)
			assert.Equal(t, exitFindings, code)
		})
	}
	for _, flag := range []string{"-w", "--write", "-write"} {
		t.Run(flag, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"bad.hcl": unformatted})
			code, _, _ := runCLI(t, "", "fmt", flag, dir)
			assert.Equal(t, exitOK, code)
			assert.Equal(t, formatted, read(t, filepath.Join(dir, "bad.hcl")))
		})
	}
	code, out, _ := runCLI(t, "", "fmt", "-h")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "-check")
}
