package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTestRunsExampleTests(t *testing.T) {
	code, out, stderr := nous(t, "", "test", "../../examples/tests")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "PASS query_status_starts_in_parallel (../../examples/tests/seed_000_reasoning.hcl:")
	assert.Regexp(t, `ok: \d+ passed\n$`, out)
	assert.NotContains(t, out, "FAIL")
}

func writeTestFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.hcl")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

const failingTest = `
test "status_is_a_chain" {
  input {
    intents = [{ type = "query_status", confidence = 0.85 }]
  }
  expect {
    edges   = { h0 = ["h1"], h1 = ["h2"] }
    queries = ["Retrieve recent commits for activity status dates:last week"]
  }
}

test "conversation" {
  input {
    intents = [{ type = "conversation", confidence = 0.9 }]
  }
  expect {
    plans = []
  }
}
`

func TestTestFailureShowsExpectedAndGot(t *testing.T) {
	file := writeTestFile(t, failingTest)
	code, out, _ := nous(t, "", "test", file)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL status_is_a_chain ("+file+":2)\n"+
		"    edges.h0\n        expected: [h1]\n        got:      [h2]\n"+
		"    queries\n        expected: 1 entry [\"Retrieve recent commits for activity status dates:last week\"]\n"+
		"        got:      2 entries [\"Retrieve recent commits for activity status dates:last week\", \"Retrieve open issues for health status statuses:open,in-progress\"]\n")
	assert.Contains(t, out, "PASS conversation")
	assert.True(t, strings.HasSuffix(out, "FAILED: 1 of 2 failed\n"), out)
}

func TestTestRunFilterAndJUnit(t *testing.T) {
	file := writeTestFile(t, failingTest)
	code, out, stderr := nous(t, "", "test", file, "--run", "^conv", "--format", "junit")
	require.Equal(t, 0, code, stderr)
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	require.NoError(t, xml.Unmarshal([]byte(out), &doc))
	assert.Equal(t, 1, doc.Tests)
	assert.Equal(t, 0, doc.Failures)

	code, out, _ = nous(t, "", "test", file, "--format", "junit")
	assert.Equal(t, 1, code)
	require.NoError(t, xml.Unmarshal([]byte(out), &doc))
	assert.Equal(t, 2, doc.Tests)
	assert.Equal(t, 1, doc.Failures)
}

func TestTestUsageErrors(t *testing.T) {
	broken := writeTestFile(t, "test \"x\" {\n  input {\n    intents = [{ type = 1, confidence = \"high\" }]\n  }\n")
	empty := writeTestFile(t, "# nothing here\n")
	escape := writeTestFile(t, "x = \"\x1b]0;pwned\x07\"\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unparseable file names its position", []string{"test", broken}, broken + " line 1"},
		{"no tests in the files", []string{"test", empty}, "no test blocks in"},
		{"missing path is one line", []string{"test", "nope.hcl"}, "nous: test: stat nope.hcl: no such file or directory\n"},
		{"snippet cannot drive the terminal", []string{"test", escape}, "1: x = \"\uFFFD]0;pwned\uFFFD\"\n"},
		{"no tests in the rules", []string{"test"}, "the rules have no test blocks"},
		{"bad format", []string{"test", "--format", "tap", empty}, `--format "tap"`},
		{"bad filter", []string{"test", "--run", "(", empty}, "--run: error parsing regexp"},
		{"filter matches nothing", []string{"test", "--run", "^zzz$", "../../examples/tests"}, `--run "^zzz$" matches no test`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := nous(t, "", tt.args...)
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestTestWarnsOfUnknownIntentTypes(t *testing.T) {
	p := writeTestFile(t, `test "typo" {
  input {
    intents = [{ type = "query_commit", confidence = 0.9 }, { type = "query_status", confidence = 0.9 }, { type = "query_deployments", confidence = 0.9 }]
  }
  expect {
    mode = "discovery"
  }
}
`)
	code, out, stderr := nous(t, "", "test", p)
	assert.Equal(t, 0, code, "a warning, not a failure: testing the fallback on purpose is allowed")
	assert.Contains(t, out, "PASS typo")
	assert.Equal(t, "nous: warning: "+p+`:1: test "typo": intent type "query_commit" is not defined in the rules (did you mean "query_commits"?); the "fallback" template plans it`+"\n", stderr,
		"query_deployments is far from every intent: a deliberate fallback test, no warning")
}

func TestTestReportMasksSecrets(t *testing.T) {
	dir := t.TempDir()
	rulesFile := filepath.Join(dir, "nous.hcl")
	require.NoError(t, os.WriteFile(rulesFile, []byte(`
intent "fallback" {
  hypothesis "retrieve" {
    description = "Retrieve with ${env("DEPLOY_TOKEN", "")}"
  }
}
test "shows_got" {
  input {
    query = "anything"
  }
  expect {
    hypotheses = [{ id = "h0", description = "something else", dependencies = [] }]
  }
}
`), 0o644))
	var out, errOut bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(name string) string {
		if name == "DEPLOY_TOKEN" {
			return "tok-9f8e7d"
		}
		return ""
	}}
	code := a.execute([]string{"--rules", rulesFile, "test"})
	require.Equal(t, exitFindings, code, errOut.String())
	assert.Contains(t, out.String(), "Retrieve with [REDACTED]")
	assert.NotContains(t, out.String()+errOut.String(), "tok-9f8e7d")
}
