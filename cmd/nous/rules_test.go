package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadRulesLookupOrder(t *testing.T) {
	const (
		explicit = "intent \"from_flag\" {}\n"
		root     = "intent \"from_nous_hcl\" {}\n"
		dotNous  = "intent \"from_dot_nous\" {}\n"
	)
	tests := []struct {
		name   string
		files  map[string]string
		flag   string
		intent string
	}{
		{"--rules wins", map[string]string{"x/r.hcl": explicit, "nous.hcl": root}, "x/r.hcl", "from_flag"},
		{"./nous.hcl", map[string]string{"nous.hcl": root, ".nous/a.hcl": dotNous}, "", "from_nous_hcl"},
		{"./.nous", map[string]string{".nous/a.hcl": dotNous}, "", "from_dot_nous"},
		{"embedded defaults", nil, "", "query_commits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, tt.files)
			t.Chdir(dir)
			var stderr bytes.Buffer
			a := &app{stderr: &stderr, getenv: func(string) string { return "" }, rulesPath: tt.flag}
			rs, err := a.loadRules()
			require.NoError(t, err, stderr.String())
			assert.NotNil(t, rs.Intent(tt.intent))
		})
	}
}

func TestLoadRulesErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"nous.hcl": "intent \"i\" {\n  pattern = \"tree\"\n}\n"})
	t.Chdir(dir)
	var stderr bytes.Buffer
	a := &app{stderr: &stderr, getenv: os.Getenv}
	_, err := a.loadRules()
	var ee *exitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, exitUsage, ee.Code)
	assert.Contains(t, stderr.String(), "nous.hcl line 2")
	assert.Contains(t, stderr.String(), "^^^^^^")

	a = &app{stderr: &stderr, getenv: os.Getenv, rulesPath: filepath.Join(dir, "missing.hcl")}
	_, err = a.loadRules()
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, exitUsage, ee.Code)
}
