package lint

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLintDoesNotImportEngine keeps the one-way flow rules → engine: of
// the engine, lint imports only the leaf engine/graph (the one cycle
// search and cycle report, shared with the planner).
func TestLintDoesNotImportEngine(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range file.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			if path != "github.com/nous-dev/nous/engine/graph" {
				assert.False(t, strings.HasPrefix(path, "github.com/nous-dev/nous/engine"), "%s imports %s", f, path)
			}
		}
	}
}
