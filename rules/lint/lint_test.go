package lint

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// posOf returns the position of the first occurrence of marker in src.
func posOf(t *testing.T, src, marker string) hcl.Pos {
	t.Helper()
	i := strings.Index(src, marker)
	require.GreaterOrEqual(t, i, 0, "marker %q not in source", marker)
	line := 1 + strings.Count(src[:i], "\n")
	col := 1 + len([]rune(src[strings.LastIndex(src[:i], "\n")+1:i]))
	return hcl.Pos{Line: line, Column: col, Byte: i}
}

// seeded lists the mistakes seeded in testdata/broken: every check, each
// at the position its marker text starts.
var seeded = []struct {
	check    string
	severity hcl.DiagnosticSeverity
	file     string
	marker   string
}{
	{rules.CheckSchema, hcl.DiagError, "rules.hcl", `colour`},
	{rules.CheckType, hcl.DiagError, "rules.hcl", `"high"`},
	{rules.CheckUnused, hcl.DiagWarning, "rules.hcl", `agent "poet"`},
	{rules.CheckInvalidValue, hcl.DiagError, "rules.hcl", `"tree"`},
	{rules.CheckExpr, hcl.DiagError, "rules.hcl", `intnet_types`},
	{rules.CheckOutOfRange, hcl.DiagError, "rules.hcl", `1.2`},
	{rules.CheckMissingDescription, hcl.DiagWarning, "rules.hcl", `hypothesis "rank"`},
	{rules.CheckConstantCondition, hcl.DiagWarning, "rules.hcl", `true"`},
	{rules.CheckUnknownReference, hcl.DiagError, "rules.hcl", `"jira"`},
	{rules.CheckCycle, hcl.DiagError, "rules.hcl", `"report"]`},
	{rules.CheckDuplicateName, hcl.DiagError, "rules.hcl", `entity "dates" { pattern = "("`},
	{rules.CheckRegexp, hcl.DiagError, "rules.hcl", `"("`},
	{rules.CheckUnreachable, hcl.DiagWarning, "rules.hcl", `1 == 2`},
	{rules.CheckTemplate, hcl.DiagError, "rules.hcl", `"Summarise`},
	{rules.CheckRegexEscape, hcl.DiagWarning, "rules.hcl", `'(?i)\\bverify`},
	{rules.CheckChangesQuestion, hcl.DiagWarning, "rules.hcl", "refine {\n    drop_filters"},
	{rules.CheckDepthLevels, hcl.DiagWarning, "rules.hcl", "7 }"},
	{rules.CheckSyntax, hcl.DiagError, "syntax.hcl", "\n}"},
}

func lintBroken(t *testing.T) (hcl.Diagnostics, map[string]*hcl.File) {
	t.Helper()
	rs, diags := rules.Load(filepath.Join("testdata", "broken"))
	return Run(rs, diags), rs.Files()
}

func TestLintFindsEverySeededMistake(t *testing.T) {
	diags, _ := lintBroken(t)
	found := map[string]*hcl.Diagnostic{}
	for _, d := range diags {
		check := rules.CheckName(d)
		require.NotContains(t, found, check, "one finding per check expected; got another: %s", d.Error())
		found[check] = d
	}
	for _, s := range seeded {
		t.Run(s.check, func(t *testing.T) {
			d := found[s.check]
			require.NotNil(t, d, "no %s finding", s.check)
			src, err := os.ReadFile(filepath.Join("testdata", "broken", s.file))
			require.NoError(t, err)
			assert.Equal(t, filepath.Join("testdata", "broken", s.file), d.Subject.Filename)
			assert.Equal(t, posOf(t, string(src), s.marker), d.Subject.Start, d.Error())
			assert.Equal(t, s.severity, d.Severity)
		})
	}
	assert.Len(t, diags, len(seeded))
	covered := map[string]bool{}
	for _, s := range seeded {
		covered[s.check] = true
	}
	for _, c := range rules.Checks {
		if c.Name == rules.CheckPluginConfig {
			continue // runs plugins: the CLI's `lint --plugins` tests cover it
		}
		assert.True(t, covered[c.Name], "check %s has no seeded mistake", c.Name)
	}
}

func TestLintOutputFormats(t *testing.T) {
	diags, files := lintBroken(t)
	for _, format := range report.Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, report.Write(&buf, format, report.Input{Diagnostics: diags, Files: files}))
			golden := filepath.Join("testdata", "golden", "broken."+format)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, buf.Bytes(), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to create the golden files")
			assert.Equal(t, string(want), buf.String())
			for _, s := range seeded {
				assert.Contains(t, buf.String(), s.check, "the %s output names every check", format)
			}
		})
	}
}

func TestSuppression(t *testing.T) {
	tests := []struct {
		name, src string
		reported  bool
	}{
		{"no comment", "agent \"a\" { plugin = \"x\" }\n", true},
		{"previous line", "# nous-lint-ignore: unused\nagent \"a\" { plugin = \"x\" }\n", false},
		{"same line", "agent \"a\" { plugin = \"x\" } # nous-lint-ignore: unused\n", false},
		{"slash comment and list", "// nous-lint-ignore: cycle, unused -- kept for later\nagent \"a\" { plugin = \"x\" }\n", false},
		{"other check", "# nous-lint-ignore: cycle\nagent \"a\" { plugin = \"x\" }\n", true},
		{"two lines above", "# nous-lint-ignore: unused\n\nagent \"a\" { plugin = \"x\" }\n", true},
		{"not a comment", "agent \"a\" { plugin = \"nous-lint-ignore: unused\" }\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := rules.Parse("s.hcl", []byte(tt.src))
			require.Empty(t, diags)
			got := Run(rs, diags)
			if tt.reported {
				require.Len(t, got, 1)
				assert.Equal(t, rules.CheckUnused, rules.CheckName(got[0]))
			} else {
				assert.Empty(t, got)
			}
		})
	}
}

func TestCycles(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string // summaries
	}{
		{"self", "\n  hypothesis \"a\" { depends_on = [\"a\"] }", []string{`a → a`}},
		{"chain closed by depends_on", `
  hypothesis "a" { depends_on = ["c"] }
  hypothesis "b" {}
  hypothesis "c" {}`, []string{`a → b → c → a`}},
		{"two explicit cycles", `
  pattern = "explicit"
  hypothesis "a" { depends_on = ["b"] }
  hypothesis "b" { depends_on = ["a"] }
  hypothesis "c" { depends_on = ["d"] }
  hypothesis "d" { depends_on = ["c"] }`, []string{`a → b → a`, `c → d → c`}},
		{"acyclic fan in", `
  pattern = "fan_in"
  hypothesis "a" {}
  hypothesis "b" { depends_on = ["a"] }
  hypothesis "c" {}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "intent \"i\" {" + tt.body + "\n}\n"
			rs, diags := rules.Parse("c.hcl", []byte(src))
			require.Empty(t, diags)
			var got []string
			for _, d := range cycles(rs) {
				assert.Equal(t, hcl.DiagError, d.Severity)
				_, after, _ := strings.Cut(d.Summary, ": ")
				got = append(got, after)
				assert.Equal(t, strings.Count(after, "→"), strings.Count(d.Detail, "\n  "), "every edge is named: %s", d.Detail)
				assert.Contains(t, d.Detail, "c.hcl:")
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestValidRulesAreClean(t *testing.T) {
	rs, diags := rules.Load(filepath.Join("..", "testdata", "valid", "nous.hcl"))
	got := Run(rs, diags)
	assert.Empty(t, got, got.Error())
}

func TestSmallerChecks(t *testing.T) {
	tests := []struct {
		name, src, check, summary string
	}{
		{"unknown action", "intent \"i\" {\n  hypothesis \"a\" {\n    description = \"A\"\n    action = \"retreive\"\n  }\n}\n", rules.CheckInvalidValue, `Unknown action "retreive"`},
		{"agent step without agent", "intent \"i\" {\n  hypothesis \"a\" {\n    description = \"A\"\n    action = \"agent\"\n  }\n}\n", rules.CheckInvalidValue, `Agent step "a" names no agent or role`},
		{"prompt for no role", "prompt \"poet\" { template = \"x\" }\n", rules.CheckUnused, `Unused prompt "poet"`},
		{"validator prompt without a validator", "prompt \"validator\" { template = \"x\" }\n", rules.CheckUnused, `Unused prompt "validator"`},
		{"unused entity", "entity \"e\" { pattern = \"x\" }\n", rules.CheckUnused, `Unused entity "e"`},
		{"unused source", "source \"s\" { plugin = \"x\" }\n", rules.CheckUnused, `Unused source "s"`},
		{"detect below min_confidence", "intent \"i\" {\n  detect {\n    when = \"query == 'x'\"\n    confidence = 0.2\n  }\n}\n", rules.CheckUnreachable, `Unreachable: intent "i" is never detected`},
		{"always false keep", "mode \"m\" { keep = \"false\" }\n", rules.CheckConstantCondition, "Condition is always false"},
		{"always false dependency", "intent \"i\" {\n  hypothesis \"a\" { description = \"A\" }\n}\ndependency \"d\" {\n  when = \"1 > 2\"\n  from = \"i.a\"\n  to = \"i.a\"\n}\n", rules.CheckUnreachable, `Unreachable: dependency "d" never applies`},
		{"retrieve without description", "source \"s\" { plugin = \"x\" }\nintent \"i\" {\n  retrieve \"r\" { source = \"s\" }\n}\n", rules.CheckMissingDescription, `Retrieve "r" has no description`},
		{"depth levels with a gap", "depth \"a\" { level = 1 }\ndepth \"b\" {\n  level = 3\n  when = \"profile.intents > 1\"\n}\n", rules.CheckDepthLevels, "Depth levels skip from 1 to 3"},
		{"a when on the floor", "depth \"a\" {\n  level = 1\n  when = \"profile.intents > 1\"\n}\n", rules.CheckDepthLevels, "The floor's when is never evaluated"},
		{"a level always chosen", "depth \"a\" { level = 1 }\ndepth \"b\" {\n  level = 2\n  when = \"1 < 2\"\n}\n", rules.CheckDepthLevels, `Depth "b" is always chosen`},
		{"a level never chosen", "depth \"a\" { level = 1 }\ndepth \"b\" {\n  level = 2\n  when = \"1 > 2\"\n}\n", rules.CheckDepthLevels, `Depth "b" is never chosen from the task profile`},
		{"a profile without levels", "profile {\n  deepen = \"pass.failed > 0\"\n}\n", rules.CheckDepthLevels, "Profile block without depth levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := rules.Parse("s.hcl", []byte(tt.src))
			require.Empty(t, diags)
			got := Run(rs, diags)
			require.Len(t, got, 1, got.Error())
			assert.Equal(t, tt.check, rules.CheckName(got[0]))
			assert.Equal(t, tt.summary, got[0].Summary)
			assert.Equal(t, hcl.DiagWarning, got[0].Severity)
		})
	}
}

func TestUnusedAgents(t *testing.T) {
	agents := "agent \"analyst\" { plugin = \"x\" }\nagent \"critic\" { plugin = \"x\" }\nagent \"writer\" { plugin = \"x\" }\nagent \"clarification\" { plugin = \"x\" }\nagent \"bard\" { plugin = \"x\" }\n"
	step := func(attrs string) string {
		return "intent \"i\" {\n  hypothesis \"h\" {\n    description = \"H\"\n" + attrs + "  }\n}\n"
	}
	tests := []struct {
		name   string
		step   string
		unused []string
	}{
		{"no agent step", step(""), []string{"analyst", "critic", "writer", "clarification", "bard"}},
		{"writer by role: analyst and critic around it", step("    action = \"agent\"\n    role = \"writer\"\n"), []string{"clarification", "bard"}},
		{"agent step defaults to writer", step("    action = \"agent\"\n"), []string{"clarification", "bard"}},
		{"named agent serves the writer role", step("    agent = \"bard\"\n"), []string{"writer", "clarification"}},
		{"agent named like its role", step("    agent = \"clarification\"\n"), []string{"analyst", "critic", "writer", "bard"}},
		{"critic alone", step("    action = \"agent\"\n    role = \"critic\"\n"), []string{"analyst", "writer", "clarification", "bard"}},
		{"named agent for the analyst role", step("    agent = \"bard\"\n    role = \"analyst\"\n"), []string{"analyst", "critic", "writer", "clarification"}},
		{"the validator block's agent", step("") + "validator {\n  agent = \"bard\"\n}\n", []string{"analyst", "critic", "writer", "clarification"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := rules.Parse("a.hcl", []byte(agents+tt.step))
			require.Empty(t, diags)
			var got []string
			for _, d := range unused(rs) {
				_, name, _ := strings.Cut(d.Summary, "Unused agent ")
				got = append(got, strings.Trim(name, `"`))
			}
			assert.Equal(t, tt.unused, got)
		})
	}
}

func TestValidatorPromptIsUsedWithAValidator(t *testing.T) {
	rs, diags := rules.Parse("v.hcl", []byte("agent \"validator\" { plugin = \"x\" }\nvalidator {\n  agent = \"validator\"\n}\nprompt \"validator\" { template = \"x\" }\n"))
	require.Empty(t, diags)
	assert.Empty(t, unused(rs))
}

func TestRegexEscape(t *testing.T) {
	tests := []struct {
		name, when string
		summary    string // "" when nothing is reported
		marker     string // where the finding starts
	}{
		{"backspace from a single escape", `"query matches '(?i)\\bx\\b'"`, "Regular expression holds a backspace (U+0008)", `'(?i)`},
		{"second operand", `"query == 'a' || query matches \"x\\fy\""`, "Regular expression holds the control character U+000C", `\"x`},
		{"double escape is a word boundary", `"query matches '(?i)\\\\bx\\\\b'"`, "", ""},
		{"tab matches a tab either way", `"query matches 'a\\tb'"`, "", ""},
		{"not a regex", `"query != '\\b'"`, "", ""},
		{"heredoc with a double escape", "<<EOT\nquery matches '\\\\bx'\nEOT", "", ""},
		{"heredoc with a single escape", "<<EOT\nquery matches '\\bx'\nEOT", "Regular expression holds a backspace (U+0008)", `'\bx'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "mode \"m\" {\n  when = " + tt.when + "\n}\n"
			rs, diags := rules.Parse("m.hcl", []byte(src))
			require.Empty(t, diags)
			got := regexEscapes(rs)
			if tt.summary == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, tt.summary, got[0].Summary)
			assert.Equal(t, rules.CheckRegexEscape, rules.CheckName(got[0]))
			assert.Equal(t, hcl.DiagWarning, got[0].Severity)
			assert.Equal(t, posOf(t, src, tt.marker), got[0].Subject.Start)
		})
	}
	rs, diags := rules.Parse("m.hcl", []byte("mode \"m\" {\n  when = \"query matches '\\\\b'\"\n}\n"))
	require.Empty(t, diags)
	assert.Contains(t, regexEscapes(rs)[0].Detail, `written \\\\b in a quoted HCL string`)
}
