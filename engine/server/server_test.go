package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const question = "how many open issues are there?"

// direct is what `nous ask --format format` prints for query, answered
// in-process without the server.
func direct(t *testing.T, query, format string) string {
	t.Helper()
	svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now }, WithStats: format == "json"})
	res, err := svc.Answer(context.Background(), newFixtures(t), ask.Request{Query: query})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, report.Render(&b, format, res, report.Options{}))
	return b.String()
}

func TestAskAnswersAsTheCLIDoes(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{})
	for _, format := range []string{"text", "markdown", "nlweb"} {
		t.Run(format, func(t *testing.T) {
			resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": question, "format": format})
			require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
			assert.Equal(t, direct(t, question, format), string(body))
			id := resp.Header.Get("Nous-Run-Id")
			require.NotEmpty(t, id)
			assert.Equal(t, "/v1/runs/"+id, resp.Header.Get("Location"))
		})
	}
	t.Run("json by default", func(t *testing.T) {
		resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": question})
		require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		var out struct {
			Result struct {
				Status, Report string
				ExecutionID    string `json:"execution_id"`
			}
		}
		require.NoError(t, json.Unmarshal(body, &out))
		assert.Equal(t, "success", out.Result.Status)
		assert.Equal(t, resp.Header.Get("Nous-Run-Id"), out.Result.ExecutionID, "the run is named by its execution ID")
		assert.NotEmpty(t, out.Result.Report)
	})
}

func TestAskRefusesBadRequests(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{MaxBody: 1024})
	for _, tt := range []struct {
		name string
		body any
		code int
		want string
	}{
		{"empty question", map[string]any{"query": "  "}, 400, "the question is empty"},
		{"unknown format", map[string]any{"query": question, "format": "pdf"}, 400, `want one of text, markdown, json, nlweb`},
		{"unknown mode", map[string]any{"query": question, "mode": "nosuch"}, 400, "mode:"},
		{"unknown field", `{"question": "x"}`, 400, `unknown field`},
		{"not JSON", `{"query": `, 400, "request body"},
		{"oversize body", `{"query": "` + strings.Repeat("x", 2048) + `"}`, 413, "larger than 1024 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := s.do(t, "POST", "/v1/ask", tt.body)
			assert.Equal(t, tt.code, resp.StatusCode)
			assert.Contains(t, string(body), tt.want)
		})
	}
}

func TestPlan(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{MaxBody: 1024})
	t.Run("a question", func(t *testing.T) {
		resp, body := s.do(t, "POST", "/v1/plan", map[string]any{"query": question})
		require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
		var plan struct {
			Query     string
			Reasoning struct{ Intents []struct{ Type string } }
		}
		require.NoError(t, json.Unmarshal(body, &plan))
		assert.Equal(t, question, plan.Query)
		require.NotEmpty(t, plan.Reasoning.Intents)
	})
	for _, tt := range []struct {
		name string
		body string
		code int
		want string
	}{
		{"intents without a question", `{"intents":[{"type":"query_status","confidence":0.8}]}`, 200, `"query_status"`},
		{"a bad confidence names where", `{"intents":[{"type":"query_status","confidence":7}]}`, 400, "1:"},
		{"unknown mode", `{"query":"x","mode":"nosuch"}`, 400, "mode:"},
		{"oversize body", `{"query": "` + strings.Repeat("x", 2048) + `"}`, 413, "larger than 1024 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := s.do(t, "POST", "/v1/plan", tt.body)
			assert.Equal(t, tt.code, resp.StatusCode, string(body))
			assert.Contains(t, string(body), tt.want)
		})
	}
}

func TestAskStreamsEvents(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{})
	resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": question, "format": "text"}, "Accept", "text/event-stream")
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	events := parseEvents(t, body)
	require.GreaterOrEqual(t, len(events), 4, string(body))
	var names []string
	for _, e := range events {
		names = append(names, e.Name)
	}
	assert.Equal(t, "run", names[0])
	assert.JSONEq(t, fmt.Sprintf(`{"id":%q}`, resp.Header.Get("Nous-Run-Id")), events[0].Data)
	assert.Equal(t, "pass", names[1])
	assert.Contains(t, names, "step_start")
	assert.Contains(t, names, "step_end")
	assert.Equal(t, []string{"done", "result"}, names[len(names)-2:])
	assert.Equal(t, strings.TrimRight(direct(t, question, "text"), "\n"), events[len(events)-1].Data)
}

func TestStreamOfAQuestionThatCannotRunIsAnError(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{})
	resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": question, "mode": "nosuch"}, "Accept", "text/event-stream")
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), "mode")
}

func TestRuns(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{KeepRuns: 2})
	var ids []string
	for i := range 3 {
		resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": fmt.Sprintf("%s (%d)", question, i)})
		require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
		ids = append(ids, resp.Header.Get("Nous-Run-Id"))
	}
	resp, body := s.do(t, "GET", "/v1/runs", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var list struct{ Runs []server.Run }
	require.NoError(t, json.Unmarshal(body, &list))
	require.Len(t, list.Runs, 2, "the store keeps the newest two")
	assert.Equal(t, ids[2], list.Runs[0].ID)
	assert.Equal(t, ids[1], list.Runs[1].ID)

	resp, _ = s.do(t, "GET", "/v1/runs/"+ids[0], nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "the oldest was evicted")
	resp, body = s.do(t, "GET", "/v1/runs/"+ids[2], nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var d struct {
		server.Run
		Output struct {
			Result  struct{ Status string }
			History json.RawMessage
			Trace   json.RawMessage
		}
	}
	require.NoError(t, json.Unmarshal(body, &d))
	assert.Equal(t, "success", d.Status)
	assert.Equal(t, "success", d.Output.Result.Status)
	assert.NotEmpty(t, d.Output.History)
	assert.NotEmpty(t, d.Output.Trace)

	resp, body = s.do(t, "DELETE", "/v1/runs/"+ids[2], nil)
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "an ended run cannot be cancelled")
	assert.Contains(t, string(body), "already ended")
	resp, _ = s.do(t, "GET", "/v1/runs?limit=0", nil)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
}

func TestStoreIsBoundedInBytes(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{KeepBytes: 1})
	for range 3 {
		resp, _ := s.do(t, "POST", "/v1/ask", map[string]any{"query": question})
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	_, body := s.do(t, "GET", "/v1/runs", nil)
	var list struct{ Runs []server.Run }
	require.NoError(t, json.Unmarshal(body, &list))
	assert.Len(t, list.Runs, 1, "only the newest run is kept when the bytes bound is exceeded")
}

// asyncAsk posts a question and delivers the response on the channel.
func asyncAsk(t *testing.T, s *testServer, body any, header ...string) <-chan *http.Response {
	out := make(chan *http.Response, 1)
	data, err := json.Marshal(body)
	require.NoError(t, err)
	go func() {
		req, _ := http.NewRequest("POST", s.url+"/v1/ask", bytes.NewReader(data))
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := s.client.Do(req)
		if err != nil {
			out <- nil
			return
		}
		out <- resp
	}()
	return out
}

func TestCancelKeepsThePartialHistory(t *testing.T) {
	p := newFixtures(t)
	p.gate = make(chan struct{})
	s := start(t, p, server.Config{})
	pending := asyncAsk(t, s, map[string]any{"query": question, "format": "json"})
	<-p.fetched
	_, body := s.do(t, "GET", "/v1/runs", nil)
	var list struct{ Runs []server.Run }
	require.NoError(t, json.Unmarshal(body, &list))
	require.Len(t, list.Runs, 1)
	assert.Equal(t, server.StatusRunning, list.Runs[0].Status)
	id := list.Runs[0].ID

	resp, body := s.do(t, "DELETE", "/v1/runs/"+id, nil)
	require.Equal(t, http.StatusAccepted, resp.StatusCode, string(body))
	r := <-pending
	require.NotNil(t, r)
	defer r.Body.Close()
	assert.Equal(t, http.StatusOK, r.StatusCode)

	_, body = s.do(t, "GET", "/v1/runs/"+id, nil)
	var d struct {
		server.Run
		Output struct{ History struct{ Termination string } }
	}
	require.NoError(t, json.Unmarshal(body, &d))
	assert.Equal(t, "cancelled", d.Status)
	assert.NotEmpty(t, d.Output.History.Termination, "the partial history is kept")
	resp, _ = s.do(t, "DELETE", "/v1/runs/nosuch", nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestOverTheCapIs429(t *testing.T) {
	p := newFixtures(t)
	p.gate = make(chan struct{})
	s := start(t, p, server.Config{MaxRuns: 1, Queue: 1})
	running := asyncAsk(t, s, map[string]any{"query": question})
	<-p.fetched
	// With the one slot taken, of three more asks one waits in the queue
	// and two are refused; the waiting one cannot answer before the gate
	// opens, so the first two answers are the refusals.
	later := make(chan *http.Response, 3)
	for range 3 {
		go func() { later <- <-asyncAsk(t, s, map[string]any{"query": question}) }()
	}
	for range 2 {
		r := <-later
		require.NotNil(t, r)
		r.Body.Close()
		assert.Equal(t, http.StatusTooManyRequests, r.StatusCode)
		assert.Equal(t, "2", r.Header.Get("Retry-After"))
	}
	close(p.gate)
	for _, c := range []<-chan *http.Response{later, running} {
		r := <-c
		require.NotNil(t, r)
		assert.Equal(t, http.StatusOK, r.StatusCode)
		r.Body.Close()
	}
}

func TestAuth(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{Token: "s3cret-token"})
	for _, tt := range []struct {
		name, path, auth string
		code             int
	}{
		{"no token", "/v1/rules", "", 401},
		{"wrong token", "/v1/rules", "Bearer nope", 401},
		{"wrong scheme", "/v1/rules", "Basic s3cret-token", 401},
		{"right token", "/v1/rules", "Bearer s3cret-token", 200},
		{"health needs none", "/healthz", "", 200},
		{"readiness needs none", "/readyz", "", 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			anon := &testServer{url: s.url, client: s.client}
			resp, body := anon.do(t, "GET", tt.path, nil, "Authorization", tt.auth)
			assert.Equal(t, tt.code, resp.StatusCode, string(body))
			if tt.code == 401 {
				assert.Equal(t, `Bearer realm="nous"`, resp.Header.Get("WWW-Authenticate"))
				assert.NotContains(t, string(body), "s3cret-token")
			}
		})
	}
}

func TestCheckAddr(t *testing.T) {
	for _, tt := range []struct {
		addr, token, want string
	}{
		{"127.0.0.1:7878", "", ""},
		{"localhost:0", "", ""},
		{"[::1]:7878", "", ""},
		{"0.0.0.0:7878", "", "not loopback: give a token"},
		{"10.1.2.3:7878", "", "not loopback"},
		{"0.0.0.0:7878", "t", ""},
		{"7878", "", "want HOST:PORT"},
	} {
		t.Run(tt.addr, func(t *testing.T) {
			err := server.CheckAddr(tt.addr, tt.token)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestCORS(t *testing.T) {
	for _, tt := range []struct {
		name, cors, origin, want string
	}{
		{"off by default", "", "https://app.example", ""},
		{"the configured origin", "https://app.example", "https://app.example", "https://app.example"},
		{"another origin", "https://app.example", "https://evil.example", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, newFixtures(t), server.Config{CORS: tt.cors})
			resp, _ := s.do(t, "OPTIONS", "/v1/ask", nil, "Origin", tt.origin, "Access-Control-Request-Method", "POST")
			assert.Equal(t, tt.want, resp.Header.Get("Access-Control-Allow-Origin"))
		})
	}
}

func TestShutdownCancelsRunsAfterTheGrace(t *testing.T) {
	p := newFixtures(t)
	p.gate = make(chan struct{})
	s := start(t, p, server.Config{Grace: time.Millisecond})
	pending := asyncAsk(t, s, map[string]any{"query": question, "format": "text"}, "Accept", "text/event-stream")
	<-p.fetched
	require.NoError(t, s.stop())
	r := <-pending
	require.NotNil(t, r, "the run answered before the server closed")
	defer r.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(r.Body)
	events := parseEvents(t, b.Bytes())
	require.NotEmpty(t, events, b.String())
	last := events[len(events)-1]
	assert.Equal(t, "result", last.Name)
	assert.Contains(t, last.Data, "Status: cancelled")
	_, err := http.Get(s.url + "/healthz")
	assert.Error(t, err, "the port is closed")
}

func TestConcurrentAsksDoNotCrossTalk(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{MaxRuns: 4, Queue: 64})
	questions := []string{question, "what are the open bugs?", "what changed last week?", "who is working on what?"}
	want := map[string]string{}
	for _, q := range questions {
		want[q] = direct(t, q, "text")
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			q := questions[i%len(questions)]
			resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": q, "format": "text"})
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, want[q], string(body), q)
		})
	}
	wg.Wait()
}

func TestMetrics(t *testing.T) {
	cfg := server.Config{}
	p := newFixtures(t)
	s := start(t, p, cfg)
	for range 2 {
		resp, _ := s.do(t, "POST", "/v1/ask", map[string]any{"query": question})
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	resp, body := s.do(t, "GET", "/metrics", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	for _, want := range []string{
		`nous_runs_total{status="success"} 2`,
		`nous_run_duration_seconds_count{status="success"} 2`,
		`nous_step_duration_seconds_count{status="completed"}`,
		`nous_runs_stored 2`,
		`nous_runs_in_flight 0`,
		`nous_runs_refused_total 0`,
		`go_goroutines`,
		`process_resident_memory_bytes`,
	} {
		assert.Contains(t, string(body), want)
	}
}

func TestReloadsAreCounted(t *testing.T) {
	srv := server.New(server.Config{Snapshots: server.Static(server.NewSnapshot(defaultRules(t), newFixtures(t), nil, nil))})
	srv.Metrics().Reloaded(true)
	srv.Metrics().Reloaded(false)
	srv.Metrics().Reloaded(false)
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	assert.Contains(t, rec.Body.String(), `nous_rules_reloads_total{outcome="ok"} 1`)
	assert.Contains(t, rec.Body.String(), `nous_rules_reloads_total{outcome="error"} 2`)
}

func TestSecretsAreMasked(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{})
	query := question + " test-token"
	for _, format := range []string{"json", "text"} {
		resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": query, "format": format}, "Accept", "text/event-stream")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.NotContains(t, string(body), "test-token", format)
	}
	for _, path := range []string{"/v1/runs", "/metrics"} {
		_, body := s.do(t, "GET", path, nil)
		assert.NotContains(t, string(body), "test-token", path)
	}
	_, body := s.do(t, "POST", "/v1/plan", map[string]any{"query": query})
	assert.NotContains(t, string(body), "test-token")
}

// A connection that sent no request (a browser's preconnect) is closed
// when the shutdown starts (see unusedConns for why), and the server ends.
func TestShutdownClosesUnusedConnections(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	resp, _ := s.do(t, "GET", "/healthz", nil) // the server has accepted conn by now
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, s.stop())
	_, err = conn.Read(make([]byte, 1))
	assert.Error(t, err, "the connection is closed")
}

// Requests no route takes are answered in JSON, as every API error; the
// viewer's routes still serve the page.
func TestUnknownRoutesAnswerJSON(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{})
	for _, tt := range []struct {
		method, path string
		code         int
		want, allow  string
	}{
		{"GET", "/v1/nosuch", 404, "GET /v1/nosuch: no such route", ""},
		{"GET", "/nosuch", 404, "no such route", ""},
		{"DELETE", "/v1/rules", 405, "DELETE /v1/rules: the method is not allowed", "GET, HEAD"},
		{"PUT", "/v1/runs/x", 405, "the method is not allowed", "DELETE, GET, HEAD"},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			resp, body := s.do(t, tt.method, tt.path, nil)
			assert.Equal(t, tt.code, resp.StatusCode)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			var e struct{ Error string }
			require.NoError(t, json.Unmarshal(body, &e), string(body))
			assert.Contains(t, e.Error, tt.want)
			assert.Equal(t, tt.allow, resp.Header.Get("Allow"))
		})
	}
	for _, path := range []string{"/", "/ui/app.js"} {
		resp, body := s.do(t, "GET", path, nil)
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
		assert.NotContains(t, resp.Header.Get("Content-Type"), "json", path)
		assert.NotEmpty(t, body)
	}
}

// With CORS, a page may read the run's ID from the answer's headers.
func TestCORSExposesTheRunHeaders(t *testing.T) {
	s := start(t, newFixtures(t), server.Config{CORS: "https://app.example"})
	resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": question, "format": "text"}, "Origin", "https://app.example")
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	assert.Equal(t, "https://app.example", resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "Nous-Run-Id, Location", resp.Header.Get("Access-Control-Expose-Headers"))
	assert.NotEmpty(t, resp.Header.Get("Nous-Run-Id"))
}
