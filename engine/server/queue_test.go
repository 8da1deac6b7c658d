package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listed is GET /v1/runs.
func listed(t *testing.T, s *testServer) []server.Run {
	t.Helper()
	_, body := s.do(t, "GET", "/v1/runs", nil)
	var list struct{ Runs []server.Run }
	require.NoError(t, json.Unmarshal(body, &list), string(body))
	return list.Runs
}

// withStatus is the ID of the one listed run with status.
func withStatus(t *testing.T, s *testServer, status string) string {
	t.Helper()
	var id string
	require.Eventually(t, func() bool {
		for _, r := range listed(t, s) {
			if r.Status == status {
				id = r.ID
				return true
			}
		}
		return false
	}, 10*time.Second, 5*time.Millisecond, "a %s run is listed", status)
	return id
}

// A run waiting for a slot is listed as queued from the moment it is
// accepted, its client is told its ID at once, and it runs once it has a
// slot.
func TestQueuedRunIsListedAndNamed(t *testing.T) {
	p := newFixtures(t)
	p.gate = make(chan struct{})
	s := start(t, p, server.Config{MaxRuns: 1, Queue: 1})
	first := asyncAsk(t, s, map[string]any{"query": question})
	<-p.fetched
	running := withStatus(t, s, server.StatusRunning)

	queued := asyncAsk(t, s, map[string]any{"query": question, "format": "text"}, "Accept", "text/event-stream")
	r := <-queued
	require.NotNil(t, r, "the queued run's stream opens before it has a slot")
	defer r.Body.Close()
	id := r.Header.Get("Nous-Run-Id")
	require.NotEmpty(t, id)
	rd := bufio.NewReader(r.Body)
	head, err := rd.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "event: run\n", head)
	assert.Equal(t, id, withStatus(t, s, server.StatusQueued))
	assert.NotEqual(t, running, id)

	close(p.gate)
	rest, err := io.ReadAll(rd)
	require.NoError(t, err)
	events := parseEvents(t, append([]byte(head), rest...))
	require.NotEmpty(t, events)
	assert.Equal(t, "result", events[len(events)-1].Name)
	assert.Contains(t, events[len(events)-1].Data, "Status: success")
	if f := <-first; f != nil {
		f.Body.Close()
	}
	_, body := s.do(t, "GET", "/v1/runs/"+id, nil)
	assert.Contains(t, string(body), `"status": "success"`)
}

// DELETE on a queued run takes it out of the queue: it ends cancelled,
// everywhere a cancelled running run does, without running a step, and
// its place in the queue is free again.
func TestCancelQueuedRun(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{true: "sse", false: "json"}[stream], func(t *testing.T) {
			p := newFixtures(t)
			p.gate = make(chan struct{})
			s := start(t, p, server.Config{MaxRuns: 1, Queue: 1})
			first := asyncAsk(t, s, map[string]any{"query": question})
			<-p.fetched
			withStatus(t, s, server.StatusRunning)
			var header []string
			if stream {
				header = []string{"Accept", "text/event-stream"}
			}
			pending := asyncAsk(t, s, map[string]any{"query": question, "format": "json"}, header...)
			id := withStatus(t, s, server.StatusQueued)

			resp, body := s.do(t, "DELETE", "/v1/runs/"+id, nil)
			require.Equal(t, http.StatusAccepted, resp.StatusCode, string(body))
			r := <-pending
			require.NotNil(t, r)
			defer r.Body.Close()
			var b bytes.Buffer
			_, _ = b.ReadFrom(r.Body)
			require.Equal(t, http.StatusOK, r.StatusCode, b.String())
			out := b.Bytes()
			if stream {
				events := parseEvents(t, out)
				require.NotEmpty(t, events, b.String())
				assert.Equal(t, "run", events[0].Name)
				assert.Equal(t, "result", events[len(events)-1].Name)
				out = []byte(events[len(events)-1].Data)
			}
			var got cancelledOutput
			require.NoError(t, json.Unmarshal(out, &got), string(out))
			assert.Equal(t, id, got.Result.ExecutionID)
			assert.Equal(t, "cancelled", got.Result.Status)
			assert.True(t, strings.HasPrefix(got.Result.Report, "Caveat: Cancelled: the run was stopped"), got.Result.Report)
			assert.Equal(t, "cancelled", got.History.Termination)

			_, body = s.do(t, "GET", "/v1/runs/"+id, nil)
			var d struct{ server.Run }
			require.NoError(t, json.Unmarshal(body, &d))
			assert.Equal(t, "cancelled", d.Status)
			resp, _ = s.do(t, "DELETE", "/v1/runs/"+id, nil)
			assert.Equal(t, http.StatusConflict, resp.StatusCode)

			// The queue has room again: another run waits instead of a 429.
			again := asyncAsk(t, s, map[string]any{"query": question})
			withStatus(t, s, server.StatusQueued)
			close(p.gate)
			for _, c := range []<-chan *http.Response{first, again} {
				r := <-c
				require.NotNil(t, r)
				assert.Equal(t, http.StatusOK, r.StatusCode)
				r.Body.Close()
			}
		})
	}
}

// With no queue, a run that finds every slot taken is refused at once.
func TestNoQueue(t *testing.T) {
	p := newFixtures(t)
	p.gate = make(chan struct{})
	s := start(t, p, server.Config{MaxRuns: 1, Queue: server.NoQueue})
	first := asyncAsk(t, s, map[string]any{"query": question})
	<-p.fetched
	resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": question})
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, string(body))
	assert.Len(t, listed(t, s), 1, "a refused run is not listed")
	close(p.gate)
	r := <-first
	require.NotNil(t, r)
	r.Body.Close()
}
