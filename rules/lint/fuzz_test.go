package lint

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/report"
)

// FuzzLint lints arbitrary rule text and renders the findings in every
// format: nothing on the way may panic.
func FuzzLint(f *testing.F) {
	paths, _ := filepath.Glob("testdata/broken/*.hcl")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("intent \"i\" {\n  hypothesis \"a\" { depends_on = [\"b\"] }\n  hypothesis \"b\" { depends_on = [\"a\"] }\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		rs, diags := rules.Parse("fuzz.hcl", src, rules.WithEnv(nil))
		found := Run(rs, diags)
		for _, format := range report.Formats {
			if err := report.Write(io.Discard, format, report.Input{Diagnostics: found, Files: rs.Files()}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
	})
}
