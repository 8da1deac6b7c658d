package ruletest_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/ruletest"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func defaultRunner(t *testing.T, filter *regexp.Regexp) *ruletest.Runner {
	t.Helper()
	rs, diags := rules.LoadFS(examples.DefaultRules(), rules.WithEnv(map[string]string{}))
	require.False(t, diags.HasErrors(), "%v", diags)
	return ruletest.NewRunner(engine.NewPlanner(rs), filter)
}

func parseTests(t *testing.T, src string) []*testcase.Case {
	t.Helper()
	rs, diags := rules.Parse("tests.hcl", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	return rs.Tests
}

// TestExampleTestsPass runs the shipped seed tests against the default rules.
func TestExampleTestsPass(t *testing.T) {
	files, err := filepath.Glob("../../examples/tests/*.hcl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		rs, diags := rules.Load(f)
		require.False(t, diags.HasErrors(), "%v", diags)
		require.NotEmpty(t, rs.Tests, f)
		for _, r := range defaultRunner(t, nil).Run(context.Background(), rs.Tests) {
			assert.True(t, r.Passed(), "%s: %v %+v", r.Name, r.Err, r.Failures)
		}
	}
}

const wrong = `
test "wrong_everything" {
  input {
    intents = [
      { type = "query_commits", confidence = 0.9 },
      { type = "query_issues", confidence = 0.2 },
    ]
    entities = { projects = ["p"] }
  }
  expect {
    hypotheses = [
      { id = "h0", description = "Retrieve commit data from GitLab", dependencies = [] },
      { id = "h1", description = "Rank commits", dependencies = [], action = "retrieve" },
    ]
    edges   = { h0 = ["h1", "h2"], h9 = ["h1"] }
    plans   = [{ id = "plan0", sources = ["youtrack"], priority = 9 }, { id = "plan1" }]
    queries = ["Retrieve commit data from GitLab projects:q"]
    diagnostics = ["cycle_broken"]
    mode    = "strict"
  }
}
`

func TestCheckReportsEveryMismatch(t *testing.T) {
	results := defaultRunner(t, nil).Run(context.Background(), parseTests(t, wrong))
	require.Len(t, results, 1)
	r := results[0]
	assert.False(t, r.Passed())
	type fail struct{ Field, Expected, Got string }
	var got []fail
	for _, f := range r.Failures {
		got = append(got, fail{f.Field, f.Expected, f.Got})
		assert.Equal(t, 10, f.Range.Start.Line, "failures point at the expect block")
	}
	assert.Equal(t, []fail{
		{"hypotheses", "2 hypotheses", "3 hypotheses [h0, h1, h2]"},
		{"hypotheses[1].description", `"Rank commits"`, `"Filter and rank commits by relevance"`},
		{"hypotheses[1].dependencies", "[]", "[h0]"},
		{"hypotheses[1].action", `"retrieve"`, `"rank"`},
		{"edges.h0", "[h1, h2]", "[h1]"},
		{"edges.h1", "[]", "[h2]"},
		{"edges.h9", "[h1]", "no node h9"},
		{"plans", "2 plans", `1 plan [plan0 "Retrieve commit data from GitLab"]`},
		{"plans[0].sources", "[youtrack]", "[gitlab]"},
		{"plans[0].priority", "9", "10"},
		{"queries[0]", `"Retrieve commit data from GitLab projects:q"`, `"Retrieve commit data from GitLab projects:p"`},
		{"diagnostics", `a diagnostic containing "cycle_broken"`, `["info low_confidence: intent \"query_issues\" skipped: confidence 0.20 is below min_confidence 0.30"]`},
		{"mode", `"strict"`, `"discovery"`},
	}, got)
}

func TestUnexpectedErrorDiagnosticFails(t *testing.T) {
	tests := parseTests(t, `
test "unexpected" {
  input { intents = [{ type = "query_commits" }] }
  expect { mode = "lenient" }
}
test "expected" {
  input {
    intents = [{ type = "query_commits" }]
    mode    = "lenient"
  }
  expect { diagnostics = ["unknown_mode"] }
}
test "not_expected" {
  input {
    intents = [{ type = "query_commits" }]
    mode    = "lenient"
  }
  expect {}
}
`)
	results := defaultRunner(t, nil).Run(context.Background(), tests)
	require.Len(t, results, 3)
	assert.False(t, results[0].Passed())
	assert.True(t, results[1].Passed(), "%+v", results[1].Failures)
	require.Len(t, results[2].Failures, 1)
	assert.Equal(t, "no unexpected error", results[2].Failures[0].Expected)
	assert.Contains(t, results[2].Failures[0].Got, `error unknown_mode: mode "lenient" is not defined`)
}

func TestInvalidInputIsAnError(t *testing.T) {
	results := defaultRunner(t, nil).Run(context.Background(), []*testcase.Case{{
		Name:  "bad",
		Input: testcase.Input{Intents: []testcase.Intent{{Type: "", Confidence: 1}}},
	}})
	require.Len(t, results, 1)
	assert.ErrorContains(t, results[0].Err, "intents[0]: type: must not be empty")
	assert.False(t, results[0].Passed())
}

func TestFilter(t *testing.T) {
	tests := parseTests(t, `
test "alpha" {
  input { query = "hi" }
}
test "beta" {
  input { query = "hi" }
}
`)
	results := defaultRunner(t, regexp.MustCompile("^be")).Run(context.Background(), tests)
	require.Len(t, results, 1)
	assert.Equal(t, "beta", results[0].Name)
}

func TestWriteText(t *testing.T) {
	tests := parseTests(t, wrong+`
test "conversation" {
  input { intents = [{ type = "conversation", confidence = 0.9 }] }
  expect {
    hypotheses = [{ id = "h0", description = "Generate appropriate conversational response" }]
    plans      = []
  }
}
`)
	var out bytes.Buffer
	require.NoError(t, ruletest.WriteText(&out, defaultRunner(t, nil).Run(context.Background(), tests)))
	text := out.String()
	assert.Contains(t, text, "FAIL wrong_everything (tests.hcl:2)\n    hypotheses\n        expected: 2 hypotheses\n        got:      3 hypotheses [h0, h1, h2]\n")
	assert.Contains(t, text, "PASS conversation (tests.hcl:23)\n")
	assert.Regexp(t, "FAILED: 1 of 2 failed\n$", text)
}

func TestWriteJUnit(t *testing.T) {
	tests := parseTests(t, wrong+`
test "ok" {
  input { intents = [{ type = "conversation" }] }
}
`)
	var out bytes.Buffer
	require.NoError(t, ruletest.WriteJUnit(&out, defaultRunner(t, nil).Run(context.Background(), tests)))
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Line    int    `xml:"line,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(out.Bytes(), &doc))
	assert.Equal(t, 2, doc.Tests)
	assert.Equal(t, 1, doc.Failures)
	require.Len(t, doc.Suites, 1)
	assert.Equal(t, "tests.hcl", doc.Suites[0].Name)
	require.Len(t, doc.Suites[0].Cases, 2)
	c := doc.Suites[0].Cases[0]
	assert.Equal(t, "wrong_everything", c.Name)
	assert.Equal(t, 2, c.Line)
	require.NotNil(t, c.Failure)
	assert.Equal(t, "13 expectation(s) failed, first hypotheses", c.Failure.Message)
	assert.Contains(t, c.Failure.Text, "plans[0].priority\n    expected: 9\n    got:      10\n")
	assert.Nil(t, doc.Suites[0].Cases[1].Failure)
}

func TestDepthExpectation(t *testing.T) {
	results := defaultRunner(t, nil).Run(context.Background(), parseTests(t, `
test "shallow" {
  input { query = "what changed last week?" }
  expect { depth = "direct" }
}
test "not so deep" {
  input { query = "what changed last week?" }
  expect { depth = "broad" }
}
`))
	require.Len(t, results, 2)
	assert.True(t, results[0].Passed(), "%+v", results[0].Failures)
	require.Len(t, results[1].Failures, 1)
	f := results[1].Failures[0]
	assert.Equal(t, []string{"depth", `"broad"`, `"direct" (level 1, the floor: no higher level's when holds)`}, []string{f.Field, f.Expected, f.Got})
}

func TestCheckAmbiguities(t *testing.T) {
	results := defaultRunner(t, nil).Run(context.Background(), parseTests(t, `
test "asked_back" {
  input { query = "please close it" }
  expect { ambiguities = ["missing_entity:targets"] }
}
test "not_asked_back" {
  input { query = "please close it" }
  expect { ambiguities = [] }
}
test "not_checked" {
  input { query = "please close it" }
  expect {}
}
`))
	require.Len(t, results, 3)
	assert.True(t, results[0].Passed(), "%v", results[0].Failures)
	require.Len(t, results[1].Failures, 1)
	assert.Equal(t, ruletest.Failure{Field: "ambiguities", Expected: "0 entries []", Got: `1 entry ["missing_entity:targets"]`, Range: results[1].Failures[0].Range}, results[1].Failures[0])
	assert.True(t, results[2].Passed())
}
