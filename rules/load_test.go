package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"text/template"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/rules/testcase"
	sdkredact "github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testEnv = WithEnv(map[string]string{"GITLAB_TOKEN": "glpat-secret", "GITLAB_URL": "https://git.example.com"})

// sameRules compares rulesets by meaning: positions, compiled programs and
// parsed files are ignored.
var sameRules = cmp.Options{
	cmpopts.IgnoreTypes(hcl.Range{}),
	cmpopts.IgnoreUnexported(Ruleset{}, Retrieval{}),
	cmp.Comparer(func(a, b *cond.Regexp) bool { return a.String() == b.String() }),
	cmp.Comparer(func(a, b *cond.Condition) bool {
		return (a == nil) == (b == nil) && (a == nil || a.Source == b.Source && cmp.Equal(a.Constant, b.Constant))
	}),
	cmp.Comparer(func(a, b *template.Template) bool { return (a == nil) == (b == nil) }),
}

func TestJSONSyntaxIsEquivalent(t *testing.T) {
	native, diags := Load("testdata/equiv/rules.hcl", testEnv)
	require.False(t, diags.HasErrors(), diags.Error())
	fromJSON, diags := Load("testdata/equiv/rules.hcl.json", testEnv)
	require.False(t, diags.HasErrors(), diags.Error())
	assert.Empty(t, cmp.Diff(native, fromJSON, sameRules))
	assert.Equal(t, native.Secrets(), fromJSON.Secrets())
}

func TestLoadDecodesEquivRules(t *testing.T) {
	rs, diags := Load("testdata/equiv/rules.hcl", testEnv)
	require.False(t, diags.HasErrors(), diags.Error())

	assert.Equal(t, Settings{Version: 1, MinConfidence: 0.4, DefaultMode: "discovery", Fallback: "generic", ClarifyMargin: DefaultClarifyMargin}, rs.Settings)
	assert.Equal(t, Loop{MaxPasses: 3, TTL: 2 * time.Minute, RefinePerStep: 3, RefineTotal: 10, Workers: 2, MaxRecords: 1000}, rs.Loop)

	src := rs.Source("gitlab")
	require.NotNil(t, src)
	assert.Equal(t, map[string]any{"base_url": "https://git.example.com", "token": "glpat-secret", "pages": int64(3), "verbose": true}, src.Config)
	assert.Equal(t, 45*time.Second, rs.Agent("writer").Timeout)

	in := rs.Intent("generic")
	require.NotNil(t, in)
	assert.Equal(t, PatternExplicit, in.Pattern)
	assert.Equal(t, 0.7, in.Detect.Confidence)
	b := in.Hypothesis("b")
	assert.Equal(t, "agent", b.Action, "an agent hypothesis defaults to the agent action")
	assert.Equal(t, "writer", b.Role, "the role defaults to the agent name when it is a role")
	assert.Equal(t, []Edge{{From: 0, To: 1}}, stripEdgeRanges(in.Edges))

	r := in.Retrievals[0]
	assert.Equal(t, 10, r.Priority, "an unset retrieve priority is the source's")
	assert.Equal(t, "a", r.Hypothesis, "the first retrieve hypothesis runs the retrieval")
	assert.Equal(t, map[string][]string{"projects": {"nous"}}, r.Defaults)
	assert.Equal(t, 20, r.Limit)

	assert.Equal(t, &Dependency{Name: "d", FromIntent: "generic", FromHypothesis: "a", ToIntent: "generic", ToHypothesis: "b"},
		&Dependency{Name: rs.Dependencies[0].Name, FromIntent: rs.Dependencies[0].FromIntent, FromHypothesis: rs.Dependencies[0].FromHypothesis,
			ToIntent: rs.Dependencies[0].ToIntent, ToHypothesis: rs.Dependencies[0].ToHypothesis})
	assert.Equal(t, &Tier{Source: "example.org", Tier: 2, Type: "news", Range: rs.Tier("example.org").Range}, rs.Tier("example.org"))
	c := rs.Checks[0]
	assert.Equal(t, "refine", c.OnFail)
	assert.Equal(t, "REPLACE", c.Refine.Op)
	assert.Equal(t, map[string][]string{"dates": {"last month"}}, c.Refine.SetFilters)
	require.NotNil(t, rs.Prompt("writer").Parsed)

	test := rs.Tests[0]
	assert.Equal(t, []testcase.Intent{{Type: "generic", Confidence: 1}}, test.Input.Intents)
	assert.Equal(t, map[string][]string{"h0": {"h1"}}, test.Expect.Edges)
	assert.Nil(t, test.Expect.Hypotheses, "unset expectations stay nil")
}

func stripEdgeRanges(edges []Edge) []Edge {
	out := make([]Edge, len(edges))
	for i, e := range edges {
		out[i] = Edge{From: e.From, To: e.To}
	}
	return out
}

func TestDefaults(t *testing.T) {
	rs, diags := Parse("empty.hcl", nil)
	require.Empty(t, diags)
	assert.Equal(t, Settings{Version: 1, MinConfidence: 0.3, DefaultMode: "discovery", Fallback: "fallback", ClarifyMargin: 0.05}, rs.Settings)
	assert.Equal(t, Loop{MaxPasses: 3, TTL: 60 * time.Second, RefinePerStep: 3, RefineTotal: 10, Workers: 4, MaxRecords: 1000}, rs.Loop)
	assert.Empty(t, rs.Secrets())
}

func TestPatternEdges(t *testing.T) {
	tests := []struct {
		pattern string
		want    []Edge // hypotheses a, b, c, d; d depends_on b
	}{
		{"chain", []Edge{{0, 1, hcl.Range{}}, {1, 2, hcl.Range{}}, {2, 3, hcl.Range{}}, {1, 3, hcl.Range{}}}},
		{"parallel", []Edge{{1, 3, hcl.Range{}}}},
		{"fan_in", []Edge{{0, 3, hcl.Range{}}, {1, 3, hcl.Range{}}, {2, 3, hcl.Range{}}}},
		{"explicit", []Edge{{1, 3, hcl.Range{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			src := `intent "i" {
  pattern = "` + tt.pattern + `"
  hypothesis "a" { description = "A" }
  hypothesis "b" { description = "B" }
  hypothesis "c" { description = "C" }
  hypothesis "d" {
    description = "D"
    depends_on  = ["b"]
  }
}`
			rs, diags := Parse("p.hcl", []byte(src))
			require.Empty(t, diags)
			assert.Equal(t, tt.want, stripEdgeRanges(rs.Intent("i").Edges))
		})
	}
}

func TestEdgeRangesPointAtTheirSource(t *testing.T) {
	src := "intent \"i\" {\n  hypothesis \"a\" {}\n  hypothesis \"b\" { depends_on = [\"a\"] }\n}\n"
	rs, diags := Parse("e.hcl", []byte(src))
	require.Empty(t, diags)
	edges := rs.Intent("i").Edges
	require.Len(t, edges, 1, "the chain edge and depends_on edge a→b are one edge")
	assert.Equal(t, posOf(t, src, `hypothesis "b"`), edges[0].Range.Start, "the pattern edge is reported first, at the dependent hypothesis")
}

func TestEnvFunction(t *testing.T) {
	src := `source "s" {
  plugin = "builtin:file"
  config = {
    url      = env("URL", "http://default")
    empty    = env("MISSING")
    token    = env("API_TOKEN")
    password = env("DB_PASSWORD", "fallback-pass")
    key      = env("api_key")
    plain    = env("PLAIN")
  }
}`
	vars := map[string]string{"API_TOKEN": "t0ken", "api_key": "k3y", "PLAIN": "visible"}
	rs, diags := Parse("env.hcl", []byte(src), WithEnv(vars))
	require.Empty(t, diags)
	assert.Equal(t, map[string]any{
		"url": "http://default", "empty": "", "token": "t0ken", "password": "fallback-pass", "key": "k3y", "plain": "visible",
	}, rs.Source("s").Config)
	assert.Equal(t, []string{"fallback-pass", "k3y", "t0ken"}, rs.Secrets())
}

func TestEnvFunctionErrors(t *testing.T) {
	src := "source \"s\" {\n  plugin = env(\"A\", \"b\", \"c\")\n  config = { x = env() }\n}\n"
	_, diags := Parse("env.hcl", []byte(src), WithEnv(nil))
	require.Len(t, diags, 2, diags.Error())
	for _, d := range diags {
		assert.Equal(t, CheckType, CheckName(d))
	}
	assert.Equal(t, 2, diags[0].Subject.Start.Line)
	assert.Equal(t, 3, diags[1].Subject.Start.Line)
}

// TestEveryErrorIsReported seeds one error per line and expects each, in
// file order, at its line.
func TestEveryErrorIsReported(t *testing.T) {
	src := `nous { min_confidence = 1.5 }
source "s" { plugin = ["x"] }
source "s" { plugin = "x" }
agent "a" {
  plugin  = "x"
  timeout = "soon"
}
intent "i" {
  pattern = "tree"
  detect { when = "query + 1" }
  hypothesis "h" { agent = "nobody" }
  hypothesis "g" { depends_on = ["missing"] }
  retrieve "r" { source = "nowhere" }
}
entity "e" { pattern = "(" }
mode "m" { keep = "item.tierr > 1" }
tier "t" { tier = -1 }
check "c" { assert = "step.records" }
loop { max_passes = 0 }
prompt "writer" { template = "{{.Query" }
dependency "d" {
  from = "i.nope"
  to   = "bogus"
}
unknown "x" {}
`
	rs, diags := Parse("broken.hcl", []byte(src))
	require.NotNil(t, rs)
	want := []struct {
		line  int
		check string
	}{
		{1, CheckOutOfRange}, {2, CheckType}, {3, CheckDuplicateName}, {6, CheckInvalidValue}, {9, CheckInvalidValue},
		{10, CheckExpr}, {11, CheckUnknownReference}, {12, CheckUnknownReference}, {13, CheckUnknownReference},
		{15, CheckRegexp}, {16, CheckExpr}, {17, CheckOutOfRange}, {18, CheckExpr}, {19, CheckOutOfRange},
		{20, CheckTemplate}, {22, CheckUnknownReference}, {23, CheckInvalidValue}, {25, CheckSchema},
	}
	SortDiagnostics(diags)
	got := make([]struct {
		line  int
		check string
	}, len(diags))
	for i, d := range diags {
		got[i].line, got[i].check = d.Subject.Start.Line, CheckName(d)
	}
	assert.Equal(t, want, got, diags.Error())
	for _, d := range diags {
		assert.Equal(t, hcl.DiagError, d.Severity)
		assert.Equal(t, "broken.hcl", d.Subject.Filename)
	}
}

func TestSyntaxErrorsNameFileAndPosition(t *testing.T) {
	for _, name := range []string{"bad.hcl", "bad.hcl.json"} {
		_, diags := Parse(name, []byte("intent \"x\" {\n  = 1\n"))
		require.True(t, diags.HasErrors())
		assert.Equal(t, CheckSyntax, CheckName(diags[0]))
		assert.Equal(t, name, diags[0].Subject.Filename)
	}
}

func TestLoadDirectoryAndFS(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.hcl":      "source \"s\" { plugin = \"builtin:file\" }\n",
		"b.hcl.json": `{"intent": {"i": {"retrieve": {"r": {"source": "s", "description": "R"}}}}}`,
		"input.json": `{"query": "not rules"}`,
		"notes.txt":  "ignored",
	}
	mapFS := fstest.MapFS{}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600))
		mapFS["sub/"+name] = &fstest.MapFile{Data: []byte(content)}
	}
	for name, load := range map[string]func() (*Ruleset, hcl.Diagnostics){
		"dir": func() (*Ruleset, hcl.Diagnostics) { return Load(dir) },
		"fs":  func() (*Ruleset, hcl.Diagnostics) { return LoadFS(mapFS) },
	} {
		t.Run(name, func(t *testing.T) {
			rs, diags := load()
			require.Empty(t, diags)
			assert.Len(t, rs.Files(), 2)
			require.NotNil(t, rs.Intent("i"))
			assert.Equal(t, "s", rs.Intent("i").Retrievals[0].Source, "references resolve across files")
		})
	}
}

func TestLoadUnreadable(t *testing.T) {
	_, diags := Load(filepath.Join(t.TempDir(), "missing.hcl"))
	require.True(t, diags.HasErrors())
	assert.Contains(t, diags[0].Detail, "missing.hcl")
	_, diags = Load(t.TempDir())
	require.True(t, diags.HasErrors())
	assert.Contains(t, diags[0].Detail, "no .hcl")
	_, diags = LoadFS(fstest.MapFS{"a.txt": {}})
	require.True(t, diags.HasErrors())
	assert.Contains(t, diags[0].Detail, "no .hcl")
}

func TestSecretsNeverAppearInDiagnostics(t *testing.T) {
	src := "agent \"a\" {\n  plugin  = \"x\"\n  timeout = env(\"API_TOKEN\")\n  sha256  = env(\"DB_PASSWORD\")\n}\n"
	_, diags := Parse("s.hcl", []byte(src), WithEnv(map[string]string{"API_TOKEN": "tok-123456", "DB_PASSWORD": "pw-abcdef"}))
	require.Len(t, diags, 2)
	for _, d := range diags {
		assert.NotContains(t, d.Error(), "tok-123456")
		assert.NotContains(t, d.Error(), "pw-abcdef")
		assert.Contains(t, d.Detail, sdkredact.Mask)
	}
}

func TestJSONKeepsDeclarationOrder(t *testing.T) {
	src := `{"intent": {"i": {"hypothesis": {"zeta": {"description": "Z"}, "alpha": {"description": "A"}, "mid": {"description": "M"}}}}}`
	rs, diags := Parse("order.hcl.json", []byte(src))
	require.Empty(t, diags)
	var names []string
	for _, h := range rs.Intent("i").Hypotheses {
		names = append(names, h.Name)
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid"}, names, "hypothesis order decides IDs h0, h1, …")
}

func TestNonTextFileIsOneDiagnostic(t *testing.T) {
	tests := []struct {
		name, src, detail string
		line, col         int
	}{
		{"bin.hcl", "\x7fELF\x02\x01\x00\x00{{", "bin.hcl has a NUL byte at line 1, column 7", 1, 7},
		{"bin.hcl.json", "{}\n\x00\x00", "bin.hcl.json has a NUL byte at line 2, column 1", 2, 1},
		{"latin1.hcl", "# ok\nx = \"caf\xe9\"\n", "latin1.hcl has an invalid UTF-8 sequence at line 2, column 9", 2, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse(tt.name, []byte(tt.src))
			require.Len(t, diags, 1)
			assert.Equal(t, "Not a text file", diags[0].Summary)
			assert.Equal(t, CheckSyntax, CheckName(diags[0]))
			assert.Contains(t, diags[0].Detail, tt.detail)
			assert.Equal(t, tt.line, diags[0].Subject.Start.Line)
			assert.Equal(t, tt.col, diags[0].Subject.Start.Column)

			out, fdiags := Format(tt.name, []byte(tt.src))
			assert.Nil(t, out)
			require.Len(t, fdiags, 1)
			assert.Equal(t, "Not a text file", fdiags[0].Summary)
		})
	}
}

func TestLoadRefusesAnOversizedSource(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, diags := Load("/dev/zero")
	require.Len(t, diags, 1)
	assert.Equal(t, "Cannot read rules", diags[0].Summary)
	assert.Contains(t, diags[0].Detail, "read /dev/zero: larger than 32 MiB")
}

func TestDeepNestingIsOneDiagnosticNotAStackOverflow(t *testing.T) {
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	for _, tt := range []struct{ name, src string }{
		{"deep.hcl", "x = " + deep + "\n"},
		{"deep.hcl.json", `{"x": ` + deep + "}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse(tt.name, []byte(tt.src))
			require.Len(t, diags, 1)
			assert.Equal(t, "Nesting too deep", diags[0].Summary)
			assert.Equal(t, CheckSyntax, CheckName(diags[0]))
			_, fdiags := Format(tt.name, []byte(tt.src))
			require.Len(t, fdiags, 1)
			assert.Equal(t, "Nesting too deep", fdiags[0].Summary)
		})
	}

	brackets := strings.Repeat("[", 2*maxNesting)
	quoted := "# " + brackets + "\n/* " + brackets + " */\n" +
		`nous {` + "\n" + `  default_mode = "` + brackets + `"` + "\n}\n"
	_, diags := Parse("quoted.hcl", []byte(quoted))
	for _, d := range diags {
		assert.NotEqual(t, "Nesting too deep", d.Summary, "brackets in comments and strings do not nest")
	}
	nested := "x = " + strings.Repeat("[", 50) + strings.Repeat("]", 50) + "\n"
	_, diags = Parse("nested.hcl", []byte(nested))
	for _, d := range diags {
		assert.NotEqual(t, "Nesting too deep", d.Summary)
	}
}

func TestByteOrderMarkIsAcceptedInBothSyntaxes(t *testing.T) {
	for name, src := range map[string]string{
		"bom.hcl":      "\xef\xbb\xbfnous {\n  fallback = \"fallback\"\n}\nintent \"fallback\" {}\n",
		"bom.hcl.json": "\xef\xbb\xbf{\"nous\": {\"fallback\": \"fallback\"}, \"intent\": {\"fallback\": {}}}",
	} {
		t.Run(name, func(t *testing.T) {
			rs, diags := Parse(name, []byte(src))
			for _, d := range diags {
				assert.NotEqual(t, hcl.DiagError, d.Severity, d.Error())
			}
			assert.NotNil(t, rs.Intent("fallback"))
		})
	}
}
