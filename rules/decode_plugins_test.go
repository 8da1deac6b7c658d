package rules

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSourceNotConfigured(t *testing.T) {
	src := `source "issues" {
  plugin = env("YOUTRACK_TOKEN", "") != "" ? "builtin:youtrack" : env("GITLAB_TOKEN", "") != "" ? "builtin:gitlab" : ""
  kind   = "issue"
  setup  = "set YOUTRACK_URL and YOUTRACK_TOKEN (or GITLAB_TOKEN to use GitLab issues)"
}
`
	for _, tt := range []struct {
		name       string
		env        map[string]string
		plugin     string
		configured bool
	}{
		{"no tokens", nil, "", false},
		{"gitlab", map[string]string{"GITLAB_TOKEN": "glpat-x"}, "builtin:gitlab", true},
		{"youtrack first", map[string]string{"GITLAB_TOKEN": "glpat-x", "YOUTRACK_TOKEN": "perm:x"}, "builtin:youtrack", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := Parse("sources.hcl", []byte(src), WithEnv(tt.env))
			require.Empty(t, diags, diags.Error())
			s := rs.Source("issues")
			require.NotNil(t, s)
			assert.Equal(t, tt.plugin, s.Plugin)
			assert.Equal(t, tt.configured, s.Configured())
			assert.Equal(t, "issue", s.Kind)
			assert.Equal(t, "set YOUTRACK_URL and YOUTRACK_TOKEN (or GITLAB_TOKEN to use GitLab issues)", s.Setup)
		})
	}
}

func TestAgentFallback(t *testing.T) {
	src := []byte(`agent "writer" {
  plugin   = env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"
  fallback = "builtin:template"
  timeout  = "45s"
}
`)
	for _, tt := range []struct {
		env            map[string]string
		plugin, backup string
	}{
		{map[string]string{"OPENAI_API_KEY": "sk-x"}, "builtin:openai", "builtin:template"},
		{nil, "builtin:template", ""}, // a plugin cannot stand in for itself
	} {
		rs, diags := Parse("agents.hcl", src, WithEnv(tt.env))
		require.Empty(t, diags, diags.Error())
		assert.Equal(t, tt.plugin, rs.Agent("writer").Plugin)
		assert.Equal(t, tt.backup, rs.Agent("writer").Fallback)
	}
}

// TestSourceAndAgentAttributeErrors checks that each attribute is accepted
// only where it means something, and says where it belongs.
func TestSourceAndAgentAttributeErrors(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		severity  hcl.DiagnosticSeverity
		check     string
		line      int
		detail    string
	}{
		{"no plugin, no setup", "source \"s\" {\n  plugin = \"\"\n}\n",
			hcl.DiagWarning, CheckMissingDescription, 2, `add setup = "…" saying how to configure it`},
		{"kind not a word", "source \"s\" {\n  plugin = \"builtin:git\"\n  kind   = \"Merge Request\"\n}\n",
			hcl.DiagError, CheckInvalidValue, 3, `got "Merge Request"`},
		{"setup on an agent", "agent \"a\" {\n  plugin = \"builtin:template\"\n  setup  = \"x\"\n}\n",
			hcl.DiagError, CheckSchema, 3, "setup belongs to source blocks"},
		{"kind on an agent", "agent \"a\" {\n  plugin = \"builtin:template\"\n  kind   = \"issue\"\n}\n",
			hcl.DiagError, CheckSchema, 3, "kind belongs to source blocks"},
		{"fallback on a source", "source \"s\" {\n  plugin   = \"builtin:git\"\n  fallback = \"builtin:file\"\n}\n",
			hcl.DiagError, CheckSchema, 3, "fallback belongs to agent blocks"},
		{"agent without a plugin", "agent \"a\" {\n  plugin = \"\"\n}\n",
			hcl.DiagError, CheckInvalidValue, 2, "An agent needs a plugin"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse("p.hcl", []byte(tt.src), WithEnv(nil))
			require.Len(t, diags, 1, diags.Error())
			d := diags[0]
			assert.Equal(t, tt.severity, d.Severity)
			assert.Equal(t, tt.check, CheckName(d))
			assert.Equal(t, tt.line, d.Subject.Start.Line)
			assert.Contains(t, d.Detail, tt.detail)
		})
	}
}

// TestConfigConditionalKeepsTypes: a conditional choosing one plugin's
// config object or another's gives the chosen object as written, its
// booleans and numbers included, not both unified into strings.
func TestConfigConditionalKeepsTypes(t *testing.T) {
	src := []byte(`source "commits" {
  plugin = env("GITLAB_TOKEN", "") != "" ? "builtin:gitlab" : "builtin:git"
  config = env("GITLAB_TOKEN", "") != "" ? {
    base_url = "https://gitlab.example.com"
    token    = env("GITLAB_TOKEN", "")
    } : env("NESTED", "") != "" ? { path = "nested" } : {
    path  = "."
    stats = env("OPENAI_API_KEY", "") != ""
    depth = 3
  }
}
`)
	for _, tt := range []struct {
		name string
		env  map[string]string
		want map[string]any
	}{
		{"the second branch", nil, map[string]any{"path": ".", "stats": false, "depth": int64(3)}},
		{"its boolean as evaluated", map[string]string{"OPENAI_API_KEY": "sk-x"}, map[string]any{"path": ".", "stats": true, "depth": int64(3)}},
		{"a nested conditional", map[string]string{"NESTED": "1"}, map[string]any{"path": "nested"}},
		{"the first branch", map[string]string{"GITLAB_TOKEN": "glpat-x"}, map[string]any{"base_url": "https://gitlab.example.com", "token": "glpat-x"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := Parse("sources.hcl", src, WithEnv(tt.env))
			require.Empty(t, diags, diags.Error())
			assert.Equal(t, tt.want, rs.Source("commits").Config)
		})
	}
}
