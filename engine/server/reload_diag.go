package server

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/sdk/redact"
)

// DiagnosticsOf are the rules diagnostics as a reload reports them, masked
// with red: the rules may quote a secret.
func DiagnosticsOf(diags hcl.Diagnostics, red *redact.Redactor) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		dg := Diagnostic{Severity: "warning", Summary: red.String(d.Summary), Detail: red.String(d.Detail)}
		if d.Severity == hcl.DiagError {
			dg.Severity = "error"
		}
		if d.Subject != nil {
			dg.Range = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, dg)
	}
	return out
}
