package report

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sample() Input {
	at := hcl.Range{Filename: "r,1:x.hcl", Start: hcl.Pos{Line: 3, Column: 7}, End: hcl.Pos{Line: 3, Column: 9}}
	return Input{Diagnostics: hcl.Diagnostics{
		rules.Error(rules.CheckExpr, at, "Bad 100% condition", "line one\nline two"),
		rules.Warning(rules.CheckUnused, at, "Unused source", ""),
	}}
}

func TestGitHubEscapesWorkflowCommands(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, "github", sample()))
	assert.Equal(t,
		"::error file=r%2C1%3Ax.hcl,line=3,col=7,endLine=3,endColumn=9,title=expr::Bad 100%25 condition%0A%0Aline one%0Aline two\n"+
			"::warning file=r%2C1%3Ax.hcl,line=3,col=7,endLine=3,endColumn=9,title=unused::Unused source\n",
		buf.String())
}

func TestCompact(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, "compact", sample()))
	assert.Equal(t, "r,1:x.hcl:3:7: error: expr: Bad 100% condition\nr,1:x.hcl:3:7: warning: unused: Unused source\n", buf.String())
}

func TestJUnitCountsFilesAndFailures(t *testing.T) {
	in := sample()
	in.Files = map[string]*hcl.File{"clean.hcl": {}}
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, "junit", in))
	var suites JUnit
	require.NoError(t, xml.Unmarshal(buf.Bytes(), &suites))
	assert.Equal(t, 2, suites.Tests, "one test case per file")
	assert.Equal(t, 2, suites.Failures)
	require.Len(t, suites.Suites[0].Cases, 2)
	assert.Equal(t, "clean.hcl", suites.Suites[0].Cases[0].Name)
	assert.Empty(t, suites.Suites[0].Cases[0].Failures)
}

func TestUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, "yaml", sample())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sarif")
}

func TestTextSnippetCannotDriveTheTerminal(t *testing.T) {
	src := []byte("x = \"\x1b]0;pwned\x07\tb\"\n")
	at := hcl.Range{Filename: "esc.hcl", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 2}}
	in := Input{
		Diagnostics: hcl.Diagnostics{rules.Error(rules.CheckSchema, at, "Unsupported argument", "")},
		Files:       map[string]*hcl.File{"esc.hcl": {Bytes: src}},
	}
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, "text", in))
	assert.Contains(t, buf.String(), "  1: x = \"\uFFFD]0;pwned\uFFFD b\"\n     ^\n")
	assert.NotContains(t, buf.String(), "\x1b")
	assert.NotContains(t, buf.String(), "\x07")
}
