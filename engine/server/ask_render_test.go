package server

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

// TestRenderMaskedIsRender guards finish's single masking: rendering the
// result masked once, then masking the bytes, gives exactly what
// report.Render with the redactor gives, in every format, with and
// without the trace, and no secret is left.
func TestRenderMaskedIsRender(t *testing.T) {
	res := renderFixture(t)
	const secret = "hunter2-s3cr3t"
	res.Report += "\n\nThe token is " + secret + " and Bearer abcdefghijklmnopqrstuvwxyz0123456789.\n"
	res.Caveats = append(res.Caveats, "a caveat naming "+secret)
	res.Records = append(res.Records, sdk.Record{ID: "x:1", Title: secret, Body: "body with " + secret})
	r := redact.New(secret).WithTokenShapes()
	masked := redact.Value(r, &res)
	for _, format := range report.Formats {
		for _, trace := range []bool{false, true} {
			var want bytes.Buffer
			require.NoError(t, report.Render(&want, format, &res, report.Options{Trace: trace, Redactor: r}))
			got, err := renderMasked(format, masked, report.Options{Trace: trace}, r)
			require.NoError(t, err)
			assert.Equal(t, want.String(), string(got), "%s, trace %v", format, trace)
			assert.NotContains(t, string(got), secret)
			var plain bytes.Buffer
			require.NoError(t, report.Render(&plain, format, &res, report.Options{Trace: trace}))
			require.Contains(t, plain.String(), secret, "the unmasked %s render spells the secret", format)
		}
	}
	_, err := renderMasked("pdf", masked, report.Options{}, r)
	assert.Error(t, err)
}

// renderFixture is a run's result with its plan and history, read back
// from a golden JSON render of engine/report.
func renderFixture(t testing.TB) runner.Result {
	raw, err := os.ReadFile("../report/testdata/answers_counting.json")
	require.NoError(t, err)
	var rendered struct {
		Plan    *engine.Plan     `json:"plan"`
		Result  runner.Result    `json:"result"`
		History *history.History `json:"history"`
	}
	require.NoError(t, json.Unmarshal(raw, &rendered))
	res := rendered.Result
	res.Plan, res.History = rendered.Plan, rendered.History
	require.NotEmpty(t, res.Report)
	return res
}

// BenchmarkFinishRender is finish's rendering of a text ask: the stored
// JSON and the text, the result masked once (once) or per render (each).
func BenchmarkFinishRender(b *testing.B) {
	res := renderFixture(b)
	r := redact.New("hunter2-s3cr3t") // as the server masks: its secrets, no token shapes
	for _, name := range []string{"once", "each"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if name == "once" {
					masked := redact.Value(r, &res)
					_, _ = renderMasked("json", masked, report.Options{}, r)
					_, _ = renderMasked("text", masked, report.Options{}, r)
					continue
				}
				var j, t bytes.Buffer
				_ = report.Render(&j, "json", &res, report.Options{Redactor: r})
				_ = report.Render(&t, "text", &res, report.Options{Redactor: r})
			}
		})
	}
}
