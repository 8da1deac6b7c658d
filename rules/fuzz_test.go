package rules

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzLoad feeds arbitrary bytes to the loader as native HCL and as HCL
// JSON, and to the formatter: none may panic, and every error diagnostic
// must name the file.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"testdata/*/*.hcl", "testdata/*/*.json", "lint/testdata/broken/*.hcl"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`mode "m" { when = "query matches '\\bx\\b' && \"\u00e9\" == query" }`))
	f.Add([]byte("intent \"i\" {\n  detect { when = <<-EOT\n    query == 'a'\n    EOT\n  }\n}\n"))
	f.Add([]byte(`{"intent": {"i": {"hypothesis": {"a": {"depends_on": ["a"]}}}}}`))
	f.Add([]byte(`source "s" { config = { t = env("X_TOKEN", "d") } }`))
	f.Add([]byte("loop { max_passes = 2 }\nprofile { deepen = \"pass.need_refinement > 0\" }\ndepth \"a\" {\n  level = 1\n  max_passes = 5\n}\ndepth \"b\" {\n  level = 1\n  when = \"profile.intents > 1\"\n  ttl = \"-1s\"\n}\n"))
	// Conditions that would build gigabytes: refused at load.
	f.Add([]byte("mode \"m\" { when = \"len(reduce(1..28, #acc + #acc, 'abcdefghijklmnop')) > 0\" }"))
	f.Add([]byte("mode \"m\" { when = \"len(string(reduce(1..30, [#acc, #acc], 'x'))) > 0\" }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		env := WithEnv(map[string]string{"X_TOKEN": "secret"})
		// Small limits keep a mutated bomb from slowing the fuzzer down.
		small := []Option{env, WithConditionBytes(1 << 16), WithConditionTimeout(10 * time.Millisecond)}
		for _, name := range []string{"fuzz.hcl", "fuzz.hcl.json"} {
			rs, diags := Parse(name, src, small...)
			if rs == nil {
				t.Fatal("Parse returned a nil ruleset")
			}
			for _, d := range diags {
				if d.Severity == 1 && (d.Subject == nil || d.Subject.Filename != name) {
					t.Fatalf("error without its file: %v", d)
				}
			}
		}
		_, _ = Format("fuzz.hcl", src)
	})
}
