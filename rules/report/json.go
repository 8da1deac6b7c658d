package report

import (
	"encoding/json"
	"io"
)

// jsonReport is the stable JSON schema of a lint report.
type jsonReport struct {
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Errors      int              `json:"errors"`
	Warnings    int              `json:"warnings"`
}

type jsonDiagnostic struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Severity  string `json:"severity"`
	Check     string `json:"check"`
	Summary   string `json:"summary"`
	Detail    string `json:"detail"`
}

func writeJSON(w io.Writer, in Input) error {
	out := jsonReport{Diagnostics: make([]jsonDiagnostic, 0, len(in.Diagnostics))}
	out.Errors, out.Warnings = Count(in.Diagnostics)
	for _, d := range in.Diagnostics {
		l := locate(d)
		out.Diagnostics = append(out.Diagnostics, jsonDiagnostic{
			File: l.file, Line: l.line, Column: l.column, EndLine: l.endLine, EndColumn: l.endColumn,
			Severity: severity(d), Check: checkOf(d), Summary: d.Summary, Detail: d.Detail,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
