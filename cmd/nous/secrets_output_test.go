package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outputSecrets each hold characters some output format escapes: JSON
// (quote, backslash, <>&, control characters), XML and HTML (<>&"'), Go
// %q, DOT and Mermaid labels, GitHub workflow commands (%, newline), and
// non-ASCII text (%+q, URL escaping).
var outputSecrets = map[string]string{
	"html":      `Sec"ret<Tok>&en9`,
	"backslash": `back\slash'quote-77`,
	"newline":   "line\nbreak-secret-42",
	"percent":   "pct%0A%25-secret-13",
	"unicode":   "Ünï-cødé✓秘密<&>x",
}

const secretVar = "NOUS_TEST_TOKEN"

// secretRules writes rules that echo env(secretVar) into a hypothesis
// description, a retrieval description, a filter value and a failing
// source's path (its error message), with a file source whose records
// quote the secret; lint.hcl names the secret as an unknown mode.
func secretRules(t *testing.T, secret string) (rulesDir, lintDir string) {
	t.Helper()
	dir := t.TempDir()
	issues := filepath.Join(dir, "issues.jsonl")
	rec, err := json.Marshal(map[string]string{"id": "PAY-1", "kind": "issue", "title": "Refund " + secret + " stuck",
		"status": "open", "project": "PAY", "author": "Bob " + secret, "url": "https://issues.example/PAY-1?t=" + secret,
		"time": "2026-11-04T09:00:00Z"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(issues, append(rec, '\n'), 0o600))
	rulesDir = filepath.Join(dir, "rules")
	require.NoError(t, os.Mkdir(rulesDir, 0o755))
	src := `nous {
  version = 1
}
source "generic" {
  plugin   = "builtin:file"
  priority = 5
  config   = { path = ` + askQuote(issues) + ` }
}
source "broken" {
  plugin   = "builtin:file"
  priority = 4
  config   = { path = "/nonexistent/${env("` + secretVar + `")}.jsonl" }
}
agent "writer" { plugin = "builtin:template" }
intent "fallback" {
  hypothesis "retrieve" {
    description = "Look for ${env("` + secretVar + `")} data"
    action      = "retrieve"
  }
  hypothesis "write" {
    description = "Write about ${env("` + secretVar + `")}"
    agent       = "writer"
    depends_on  = ["retrieve"]
  }
  retrieve "all" {
    description = "Retrieve ${env("` + secretVar + `")}"
    source      = "generic"
  }
  retrieve "filtered" {
    description = "Filtered"
    source      = "generic"
    filters     = ["projects"]
    defaults    = { projects = [env("` + secretVar + `")] }
  }
  retrieve "failing" {
    description = "Failing"
    source      = "broken"
  }
}
`
	require.NoError(t, os.WriteFile(filepath.Join(rulesDir, "nous.hcl"), []byte(src), 0o600))
	lintDir = filepath.Join(dir, "lint")
	require.NoError(t, os.Mkdir(lintDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(lintDir, "lint.hcl"),
		[]byte("nous {\n  version      = 1\n  default_mode = env(\""+secretVar+"\")\n}\n"), 0o600))
	return rulesDir, lintDir
}

// Every output format of plan, ask (with --trace and --log-dir) and lint
// is decoded back, and neither the secret nor any spelling of it is left.
func TestSecretsStayOutOfEveryOutput(t *testing.T) {
	for name, secret := range outputSecrets {
		t.Run(name, func(t *testing.T) {
			t.Setenv(secretVar, secret)
			rulesDir, lintDir := secretRules(t, secret)
			for _, format := range []string{"json", "text", "dot", "mermaid"} {
				code, out, stderr := runCLI(t, "", "--rules", rulesDir, "plan", "-f", format, "hello world")
				require.Equal(t, exitOK, code, stderr)
				assertNoSecret(t, secret, "plan "+format, format, out)
				assertNoSecret(t, secret, "plan "+format+" stderr", "text", stderr)
			}
			for _, format := range []string{"json", "nlweb", "markdown", "text"} {
				logs := t.TempDir()
				out, stderr, code := runAsk(t, "--rules", rulesDir, "--format", format, "--trace", "--log-dir", logs, "hello world")
				require.NotEqual(t, exitUsage, code, stderr)
				require.NotEmpty(t, out, stderr)
				assertNoSecret(t, secret, "ask "+format, format, out)
				assertNoSecret(t, secret, "ask "+format+" stderr", "text", stderr)
				n := 0
				require.NoError(t, filepath.WalkDir(logs, func(p string, d os.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					b, err := os.ReadFile(p)
					n++
					assertNoSecret(t, secret, "log "+filepath.Base(p), "json", string(b))
					return err
				}))
				require.NotZero(t, n, "the log dir holds the run's files")
			}
			for _, format := range []string{"text", "json", "sarif", "junit", "github", "compact"} {
				code, out, stderr := runCLI(t, "", "lint", "--format", format, lintDir)
				require.Equal(t, exitFindings, code, stderr)
				require.Contains(t, out, "Unknown mode", "the finding that quotes the secret is reported")
				assertNoSecret(t, secret, "lint "+format, format, out)
			}
		})
	}
}

// A secret-named variable of the process environment that no rule reads
// is masked when a record quotes it (a file source reading
// /proc/self/environ), in every report format.
func TestEnvironmentSecretsAreMaskedInReports(t *testing.T) {
	const secret = `env-only<Secret>&"value"-99`
	t.Setenv("NOUS_TEST_UNREAD_API_KEY", secret)
	t.Setenv(secretVar, "") // the rules read nothing secret
	rulesDir, _ := secretRules(t, secret)
	for _, format := range []string{"json", "nlweb", "markdown", "text"} {
		out, stderr, code := runAsk(t, "--rules", rulesDir, "--format", format, "--trace", "hello world")
		require.NotEqual(t, exitUsage, code, stderr)
		require.Contains(t, out, "Refund", "the record is in the %s report", format)
		assertNoSecret(t, secret, "ask "+format, format, out)
	}
}

// A record whose id, title, author or URL holds a newline (or an escape
// sequence) cannot start a line of the text or Markdown report.
func TestRecordFieldsCannotForgeReportLines(t *testing.T) {
	dir := t.TempDir()
	issues := filepath.Join(dir, "issues.jsonl")
	rec, err := json.Marshal(map[string]string{"id": "PAY-1\n## Forged id", "kind": "issue",
		"title": "Refund\r\n## Forged title \x1b]0;owned\x07\x1b[31m", "status": "open", "project": "PAY",
		"author": "Bob\n## Forged author", "url": "https://x.example/\n## Forged url) [click](https://evil.example)",
		"time": "2026-11-04T09:00:00Z"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(issues, append(rec, '\n'), 0o600))
	rules := filepath.Join(dir, "nous.hcl")
	require.NoError(t, os.WriteFile(rules, []byte(`nous {
  version = 1
}
source "generic" {
  plugin = "builtin:file"
  config = { path = `+askQuote(issues)+` }
}
agent "writer" { plugin = "builtin:template" }
intent "fallback" {
  hypothesis "retrieve" {
    description = "Look"
    action      = "retrieve"
  }
  hypothesis "write" {
    description = "Write"
    agent       = "writer"
    depends_on  = ["retrieve"]
  }
  retrieve "all" {
    description = "Retrieve"
    source      = "generic"
  }
}
`), 0o600))
	for _, format := range []string{"text", "markdown"} {
		out, stderr, code := runAsk(t, "--rules", rules, "--format", format, "--trace", "hello world")
		require.Equal(t, exitOK, code, stderr)
		require.Contains(t, out, "Forged id", "the record is in the report")
		for line := range strings.Lines(out) {
			assert.NotRegexp(t, `^\s*(#+\s*|[-*]\s*)?Forged`, line, "%s: a field started a line", format)
		}
		assert.NotContains(t, out, "\x1b", format)
		assert.NotContains(t, out, "\r", format)
		assert.NotContains(t, out, "](https://evil.example)", "%s: a field made a link", format)
	}
}

// assertNoSecret fails when out, decoded as format, holds secret (or the
// secret with its newlines as spaces, as one-line fields and labels have).
func assertNoSecret(t *testing.T, secret, what, format, out string) {
	t.Helper()
	forms := []string{secret, strings.ReplaceAll(secret, "\n", " ")}
	for _, view := range decodedViews(t, format, out) {
		for _, f := range forms {
			if strings.Contains(view, f) {
				t.Errorf("%s: the secret %q is in the output (decoded as %s):\n%s", what, secret, format, out)
				return
			}
		}
	}
}

// decodedViews are out as written and as each decoding that applies to
// its format reads it, each also with Go-quoted strings unquoted and HTML
// entities and Markdown escapes undone.
func decodedViews(t *testing.T, format, out string) []string {
	t.Helper()
	views := []string{out}
	switch format {
	case "json", "nlweb", "sarif":
		views = append(views, jsonStrings(t, out)...)
	case "junit":
		views = append(views, xmlStrings(t, out)...)
	case "dot":
		views = append(views, dotStrings(out)...)
	case "mermaid":
		for _, s := range dotStrings(out) {
			views = append(views, strings.NewReplacer("#quot;", `"`, "#lt;", "<", "#gt;", ">", "#amp;", "&").Replace(s))
		}
	case "github":
		views = append(views, githubUnescape.Replace(out))
	}
	var all []string
	for _, v := range views {
		all = append(all, v, html.UnescapeString(v), markdownUnescape.ReplaceAllString(v, "$1"))
		all = append(all, goQuoted(v)...)
	}
	return all
}

var (
	markdownUnescape = regexp.MustCompile(`\\([[:punct:]])`)
	githubUnescape   = strings.NewReplacer("%25", "%", "%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",")
	dotLiteral       = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
)

// jsonStrings are every string (keys too) of the JSON values in out: one
// document, or one per line.
func jsonStrings(t *testing.T, out string) []string {
	t.Helper()
	var strs []string
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return strs
		}
		require.NoError(t, err, "output is JSON")
		strs = collectStrings(strs, v)
	}
}

func collectStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, x := range v {
			out = collectStrings(out, x)
		}
	case map[string]any:
		for k, x := range v {
			out = collectStrings(append(out, k), x)
		}
	}
	return out
}

// xmlStrings are the character data and attribute values of out.
func xmlStrings(t *testing.T, out string) []string {
	t.Helper()
	var strs []string
	dec := xml.NewDecoder(strings.NewReader(out))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return strs
		}
		require.NoError(t, err, "output is XML")
		switch tok := tok.(type) {
		case xml.CharData:
			strs = append(strs, string(tok))
		case xml.StartElement:
			for _, a := range tok.Attr {
				strs = append(strs, a.Value)
			}
		}
	}
}

// dotStrings are the quoted labels of a DOT or Mermaid diagram, unquoted.
func dotStrings(out string) []string {
	var strs []string
	for _, lit := range dotLiteral.FindAllString(out, -1) {
		strs = append(strs, strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n").Replace(lit[1:len(lit)-1]))
	}
	return strs
}

// goQuoted are the Go-quoted strings (%q) in s, unquoted.
func goQuoted(s string) []string {
	var strs []string
	for i := strings.IndexByte(s, '"'); i >= 0 && i < len(s); {
		if q, err := strconv.QuotedPrefix(s[i:]); err == nil {
			if u, err := strconv.Unquote(q); err == nil {
				strs = append(strs, u)
			}
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return strs
}
