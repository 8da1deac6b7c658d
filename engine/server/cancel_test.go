package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cancelledOutput is what a cancelled run's JSON output must hold.
type cancelledOutput struct {
	Result struct {
		ExecutionID string `json:"execution_id"`
		Status      string
		Report      string
	}
	History struct{ Termination string }
}

// A run cancelled at shutdown, at whatever stage it was, ends as cancelled
// with its history, everywhere it is told: the answer, the event stream,
// the stored run and the log directory; never as a question no source
// could answer.
func TestShutdownEndsEveryStageAsCancelled(t *testing.T) {
	for _, call := range []string{"ground", "describe", "fetch"} {
		for _, stream := range []bool{false, true} {
			t.Run(call+map[bool]string{true: "/sse", false: "/json"}[stream], func(t *testing.T) {
				p := newFixtures(t)
				p.gate, p.gateCall = make(chan struct{}), call
				logs := t.TempDir()
				s := start(t, p, server.Config{Grace: time.Millisecond, LogDir: logs})
				var header []string
				if stream {
					header = []string{"Accept", "text/event-stream"}
				}
				pending := asyncAsk(t, s, map[string]any{"query": question, "format": "json"}, header...)
				<-p.fetched
				require.NoError(t, s.stop())
				r := <-pending
				require.NotNil(t, r, "the run answered before the server closed")
				defer r.Body.Close()
				var b bytes.Buffer
				_, _ = b.ReadFrom(r.Body)
				require.Equal(t, http.StatusOK, r.StatusCode, b.String())
				body := b.Bytes()
				if stream {
					events := parseEvents(t, body)
					require.GreaterOrEqual(t, len(events), 3, b.String())
					assert.Equal(t, []string{"done", "result"}, []string{events[len(events)-2].Name, events[len(events)-1].Name})
					body = []byte(events[len(events)-1].Data)
				}
				var out cancelledOutput
				require.NoError(t, json.Unmarshal(body, &out), string(body))
				assert.Equal(t, "cancelled", out.Result.Status)
				assert.NotContains(t, out.Result.Report, "No source")
				assert.True(t, strings.HasPrefix(out.Result.Report, "Caveat: Cancelled: the run was stopped"), out.Result.Report)
				assert.Equal(t, "cancelled", out.History.Termination)

				logged, err := os.ReadFile(filepath.Join(logs, out.Result.ExecutionID, "history.json"))
				require.NoError(t, err, "the run is in the log directory")
				assert.Contains(t, string(logged), `"termination": "cancelled"`)
			})
		}
	}
}

// A client that goes away cancels its run, which is stored as cancelled
// with its partial history.
func TestClientDisconnectCancelsTheRun(t *testing.T) {
	p := newFixtures(t)
	p.gate = make(chan struct{})
	s := start(t, p, server.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", s.url+"/v1/ask", strings.NewReader(`{"query":"`+question+`"}`))
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := s.client.Do(req)
	require.NoError(t, err)
	id := resp.Header.Get("Nous-Run-Id")
	require.NotEmpty(t, id)
	<-p.fetched
	cancel()
	resp.Body.Close()

	var d struct {
		server.Run
		Output cancelledOutput
	}
	require.Eventually(t, func() bool {
		_, body := s.do(t, "GET", "/v1/runs/"+id, nil)
		require.NoError(t, json.Unmarshal(body, &d))
		return d.Status != server.StatusRunning
	}, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, "cancelled", d.Status)
	assert.Equal(t, "cancelled", d.Output.Result.Status)
	assert.Equal(t, "cancelled", d.Output.History.Termination)
}
