package examples_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/rules"
)

// TestRulesAreFormatted: every rules file shipped as an example (the
// embedded defaults, the other example rules, the rule tests) is as
// `nous fmt` writes it, so `nous fmt --check examples` passes.
func TestRulesAreFormatted(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".hcl" {
			files = append(files, path)
		}
		return err
	}))
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(path, func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			out, diags := rules.Format(path, src)
			require.False(t, diags.HasErrors(), "%s", diags)
			assert.Equal(t, string(out), string(src), "%s is not formatted: run nous fmt -w %s", path, path)
		})
	}
}
