package render_test

import (
	"io"
	"testing"

	"github.com/nous-dev/nous/engine/render"
	"github.com/nous-dev/nous/sdk/redact"
)

// BenchmarkWriteJSON renders a three-intent plan as `nous plan --format
// json` and POST /v1/plan do, masking a secret the plan does not hold.
func BenchmarkWriteJSON(b *testing.B) {
	p := planInput(b, "query")
	red := redact.New("test-token-0123456789")
	b.ReportAllocs()
	for b.Loop() {
		if err := render.Write(io.Discard, p, "json", red); err != nil {
			b.Fatal(err)
		}
	}
}
