// Package report renders rule diagnostics in the formats CI systems read:
// text with source snippets, JSON, SARIF 2.1.0, JUnit XML, GitHub workflow
// annotations and a compact one-line form. Every format is a view of the
// same hcl.Diagnostics.
package report

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// Formats lists the format names Write accepts.
var Formats = []string{"text", "json", "sarif", "junit", "github", "compact"}

// Input is what a report shows: the diagnostics, and the parsed files they
// point into (for snippets; every file in it counts as checked).
type Input struct {
	Diagnostics hcl.Diagnostics
	Files       map[string]*hcl.File
	Redactor    *redact.Redactor // masks secrets before any format encodes them
}

// Write renders in as format to w.
func Write(w io.Writer, format string, in Input) error {
	in = in.redacted()
	switch format {
	case "text":
		return writeText(w, in)
	case "json":
		return writeJSON(w, in)
	case "sarif":
		return writeSARIF(w, in)
	case "junit":
		return writeJUnit(w, in)
	case "github":
		return writeGitHub(w, in)
	case "compact":
		return writeCompact(w, in)
	}
	return fmt.Errorf("unknown format %q (want one of %q)", format, Formats)
}

// severity names a diagnostic severity in lower case.
func severity(d *hcl.Diagnostic) string { return levelOf(d.Severity) }

// levelOf names a severity as SARIF levels and the other formats do.
func levelOf(s hcl.DiagnosticSeverity) string {
	if s == hcl.DiagWarning {
		return "warning"
	}
	return "error"
}

// location is a diagnostic's position with zero values when it has none.
type location struct {
	file                             string
	line, column, endLine, endColumn int
}

func locate(d *hcl.Diagnostic) location {
	if d.Subject == nil {
		return location{}
	}
	s := d.Subject
	return location{file: filepath.ToSlash(s.Filename), line: s.Start.Line, column: s.Start.Column, endLine: s.End.Line, endColumn: s.End.Column}
}

// checkOf is the diagnostic's check name, "syntax" for untagged HCL ones.
func checkOf(d *hcl.Diagnostic) string {
	if c := rules.CheckName(d); c != "" {
		return c
	}
	return rules.CheckSyntax
}

// fileNames returns every file of the input, checked or pointed at, sorted.
func fileNames(in Input) []string {
	seen := map[string]bool{}
	for name := range in.Files {
		seen[filepath.ToSlash(name)] = true
	}
	for _, d := range in.Diagnostics {
		if d.Subject != nil {
			seen[filepath.ToSlash(d.Subject.Filename)] = true
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Count returns the number of errors and warnings.
func Count(diags hcl.Diagnostics) (errors, warnings int) {
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			warnings++
		} else {
			errors++
		}
	}
	return errors, warnings
}
