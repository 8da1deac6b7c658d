package server_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
)

func TestDiagnosticsOf(t *testing.T) {
	at := &hcl.Range{Filename: "rules/sources.hcl", Start: hcl.Pos{Line: 7, Column: 3}}
	tests := []struct {
		name string
		in   *hcl.Diagnostic
		want server.Diagnostic
	}{
		{"an error with its position", &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: "An argument named \"tokn\" is not expected here.", Subject: at},
			server.Diagnostic{Range: "rules/sources.hcl:7:3", Severity: "error", Summary: "Unsupported argument", Detail: "An argument named \"tokn\" is not expected here."}},
		{"a warning without position", &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "unused intent"},
			server.Diagnostic{Severity: "warning", Summary: "unused intent"}},
		{"a secret quoted", &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "bad token", Detail: "token glpat-s3cr3t-value is not a URL"},
			server.Diagnostic{Severity: "error", Summary: "bad token", Detail: "token [REDACTED] is not a URL"}},
	}
	red := redact.New("glpat-s3cr3t-value")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, []server.Diagnostic{tt.want}, server.DiagnosticsOf(hcl.Diagnostics{tt.in}, red))
		})
	}
	assert.Equal(t, []server.Diagnostic{}, server.DiagnosticsOf(nil, nil), "an empty list, not null")
}
