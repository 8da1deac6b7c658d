package durable

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/durable/devserver"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/sdk/redact"
)

// BenchmarkAnswer answers one question in memory and as a durable run on
// a real dev server with a worker in this process, over the same
// in-process plugins: the difference is the workflow's overhead, which
// it reports per activity (plugin call) and per pass. The dev server it
// starts keeps its state in a file; $NOUS_BENCH_TEMPORAL (HOST:PORT)
// names another service instead, e.g. `temporal server start-dev`
// without --db-filename, which keeps it in memory.
func BenchmarkAnswer(b *testing.B) {
	rs := defaultRules(b)
	p := newInProcess(b, gitRepo(b))
	red := redact.New()
	const q = "what changed in payments this month?"
	b.Run("in-memory", func(b *testing.B) {
		b.ReportAllocs()
		svc := ask.New(ask.Deps{Rules: rs, Clock: func() time.Time { return now }, Redactor: red})
		for b.Loop() {
			res, err := svc.Answer(context.Background(), p, ask.Request{Query: q})
			require.NoError(b, err)
			var out bytes.Buffer
			require.NoError(b, report.Render(&out, "json", res, report.Options{Redactor: red}))
		}
	})
	b.Run("temporal", func(b *testing.B) {
		b.ReportAllocs()
		o := Options{HostPort: os.Getenv("NOUS_BENCH_TEMPORAL"), Namespace: "default", TaskQueue: "bench"}
		if o.HostPort == "" {
			srv := devserver.Start(b)
			o.HostPort, o.Namespace = srv.HostPort, srv.Namespace
		}
		c, err := Dial(context.Background(), o, client.Options{})
		require.NoError(b, err)
		defer c.Close()
		w := NewWorker(c, o, NewWorkflow(rs, red), &Activities{Plugins: p, Redactor: red})
		require.NoError(b, w.Start())
		defer w.Stop()
		in := Input{Query: q, Rules: rs.Digest(), Formats: []string{"json"}, Now: now}
		calls, passes := p.total(), 0
		for i := 0; b.Loop(); i++ {
			in.ID = fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i)
			out, err := Ask(context.Background(), c, o, in, Watch{})
			require.NoError(b, err)
			require.Equal(b, "success", out.Status, out.Error)
			passes++
		}
		perRun := float64(p.total()-calls) / float64(b.N)
		b.ReportMetric(perRun, "activities/op")
		b.ReportMetric(float64(passes)/float64(b.N), "passes/op")
	})
}
