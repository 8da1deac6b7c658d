package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/lint"
	"github.com/nous-dev/nous/rules/report"
	"github.com/nous-dev/nous/sdk"
)

// Bounds of what lint reads.
const (
	maxLintFiles = 64
	maxLintBytes = 1 << 20 // all the files together
	maxNameBytes = 255
)

var lintTool = mcp.Tool{
	Name:  "lint",
	Title: "Check nous rules",
	Description: `Lints nous rules (HCL, the language of the files under examples/rules/default) given
as text, as ` + "`nous lint`" + ` does: parse, type and expression errors, unknown
references, duplicates, cycles, thresholds out of range, unused and unreachable
definitions, missing descriptions, constant conditions. The files are linted together as
one ruleset, so a file may use what another defines.

Use it to check a rule edit before saving it. env() reads no variable and git_remote()
finds no repository here: lint checks the text, not this machine, and starts no plugin.
The text content is the report ` + "`nous lint`" + ` prints, with source snippets; the
structured content has every diagnostic with its file, line and column, as
` + "`nous lint --format json`" + ` prints them. At most 64 files and 1 MiB.`,
	Annotations: readOnly,
}

// LintInput is the lint tool's input.
type LintInput struct {
	Files []RuleFile `json:"files" jsonschema:"the rules files to lint together as one ruleset"`
}

// RuleFile is one rules file given as text.
type RuleFile struct {
	Name    string `json:"name" jsonschema:"the file's name, ending in .hcl or .hcl.json, e.g. intents.hcl; diagnostics name it"`
	Content string `json:"content" jsonschema:"the file's text"`
}

// LintOutput is the lint tool's structured result: `nous lint --format json`.
type LintOutput struct {
	Diagnostics []LintDiagnostic `json:"diagnostics" jsonschema:"every finding, in file and position order"`
	Errors      int              `json:"errors" jsonschema:"how many findings are errors: rules with errors do not load"`
	Warnings    int              `json:"warnings" jsonschema:"how many findings are warnings"`
}

// LintDiagnostic is one finding; positions count from 1 and are 0 when
// the finding is about no place in particular.
type LintDiagnostic struct {
	File      string `json:"file" jsonschema:"the file it is in"`
	Line      int    `json:"line" jsonschema:"where it starts: line"`
	Column    int    `json:"column" jsonschema:"where it starts: column"`
	EndLine   int    `json:"end_line" jsonschema:"where it ends: line"`
	EndColumn int    `json:"end_column" jsonschema:"where it ends: column"`
	Severity  string `json:"severity" jsonschema:"error or warning"`
	Check     string `json:"check" jsonschema:"the check that found it (syntax for parse errors)"`
	Summary   string `json:"summary" jsonschema:"what is wrong, in one line"`
	Detail    string `json:"detail" jsonschema:"what was expected, or how to fix it"`
}

// lintRules loads the files as one ruleset and reports what `nous lint` would.
func lintRules(_ context.Context, _ *mcp.CallToolRequest, in LintInput) (*mcp.CallToolResult, LintOutput, error) {
	fsys, err := ruleFS(in.Files)
	if err != nil {
		return nil, LintOutput{}, err
	}
	rs, diags := rules.LoadFS(fsys, rules.WithEnv(nil), rules.WithGitRemote(noRemote))
	rin := report.Input{Diagnostics: lint.Run(rs, diags), Files: map[string]*hcl.File{}}
	for name, f := range rs.Files() {
		rin.Files[name] = f
	}
	rules.SortDiagnostics(rin.Diagnostics)
	var txt, js bytes.Buffer
	if err := report.Write(&txt, "text", rin); err != nil {
		return nil, LintOutput{}, fmt.Errorf("writing the report: %w", err)
	}
	if err := report.Write(&js, "json", rin); err != nil {
		return nil, LintOutput{}, fmt.Errorf("writing the report: %w", err)
	}
	var out LintOutput
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		return nil, LintOutput{}, fmt.Errorf("reading the report: %w", err)
	}
	return text(txt.String()), out, nil
}

// ruleFS holds files as the rules loader reads them, checking their names
// and sizes.
func ruleFS(files []RuleFile) (fs.FS, error) {
	switch {
	case len(files) == 0:
		return nil, &server.RequestError{Field: "files", Msg: "none given: want at least one rules file"}
	case len(files) > maxLintFiles:
		return nil, &server.RequestError{Field: "files", Msg: fmt.Sprintf("%d files: want at most %d", len(files), maxLintFiles)}
	}
	fsys := fstest.MapFS{}
	size := 0
	for i, f := range files {
		field := fmt.Sprintf("files[%d].name", i)
		switch {
		case len(f.Name) > maxNameBytes:
			return nil, &server.RequestError{Field: field, Msg: fmt.Sprintf("%d bytes: want at most %d", len(f.Name), maxNameBytes)}
		case !fs.ValidPath(f.Name) || f.Name == ".":
			return nil, &server.RequestError{Field: field, Msg: fmt.Sprintf("%q: want a relative slash-separated path without . or .. elements", f.Name)}
		case !rules.IsFile(f.Name):
			return nil, &server.RequestError{Field: field, Msg: fmt.Sprintf("%q: want a name ending in .hcl or .hcl.json", f.Name)}
		case fsys[f.Name] != nil:
			return nil, &server.RequestError{Field: field, Msg: fmt.Sprintf("%q is given twice", f.Name)}
		}
		if size += len(f.Content); size > maxLintBytes {
			return nil, &server.RequestError{Field: fmt.Sprintf("files[%d].content", i), Msg: fmt.Sprintf("the files pass %d bytes together", maxLintBytes)}
		}
		fsys[f.Name] = &fstest.MapFile{Data: []byte(f.Content), Mode: 0o644}
	}
	return fsys, nil
}

// noRemote is git_remote's answer in linted text: no repository.
func noRemote(string) (sdk.Remote, bool) { return sdk.Remote{}, false }
