package nlweb_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/nlweb"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const items = `[{"@type":"Item","url":"https://deep-research.internal/discovery/q","name":"report"},{"@type":"Item","url":"https://deep-research.internal/discovery/q#answer-1","name":"answer"}]`

// asker answers every question with the same run, and keeps what it was asked.
type asker struct {
	got server.AskRequest
	err error
}

func (a *asker) Ask(_ context.Context, req server.AskRequest, w server.Watch) (server.Answer, error) {
	a.got = req
	if a.err != nil {
		return server.Answer{}, a.err
	}
	run := server.Run{ID: "run-1", Status: "success"}
	if w.Started != nil {
		w.Started(run)
	}
	if w.Progress != nil {
		w.Progress(runner.Event{Kind: "start", Step: "h1", Description: "Recent commits explain the change"})
		w.Progress(runner.Event{Kind: "end", Step: "h1"})
	}
	return server.Answer{Run: run, Result: &runner.Result{Report: "The report."}, Output: []byte(items)}, nil
}

func get(t *testing.T, h http.Handler, rawQuery string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/ask?"+rawQuery, nil))
	return rec
}

// answer is a non-streaming response.
type answer struct {
	QueryID string            `json:"query_id"`
	Results []json.RawMessage `json:"results"`
	Summary string            `json:"summary"`
	Answer  string            `json:"answer"`
}

func TestNonStreaming(t *testing.T) {
	a := &asker{}
	h := nlweb.Handler(a)
	for _, tt := range []struct {
		name, query string
		want        server.AskRequest
		id, summary string
		answer      string
	}{
		{name: "the protocol's example", query: "query=what+changed+last+week%3F&site=all&streaming=false",
			want: server.AskRequest{Query: "what changed last week?", Format: "nlweb"}, id: "run-1"},
		{name: "a query id and prev", query: "query=and+the+week+before%3F&prev=what+changed+last+week%3F,who+changed+it%3F&query_id=q7&streaming=0",
			want: server.AskRequest{Query: "and the week before?", Format: "nlweb", Prev: []string{"what changed last week?", "who changed it?"}}, id: "q7"},
		{name: "prev as a JSON list keeps its commas", query: "query=and+before%3F&prev=" + url.QueryEscape(`["what changed, and why?"]`) + "&streaming=false",
			want: server.AskRequest{Query: "and before?", Format: "nlweb", Prev: []string{"what changed, and why?"}}, id: "run-1"},
		{name: "a decontextualized query stands alone", query: "query=and+before%3F&prev=x&decontextualized_query=what+changed+the+week+before+last%3F&streaming=false",
			want: server.AskRequest{Query: "what changed the week before last?", Format: "nlweb"}, id: "run-1"},
		{name: "summarize", query: "query=q&mode=summarize&streaming=false", want: server.AskRequest{Query: "q", Format: "nlweb"}, id: "run-1", summary: "The report."},
		{name: "generate", query: "query=q&generate_mode=generate&streaming=false", want: server.AskRequest{Query: "q", Format: "nlweb"}, id: "run-1", answer: "The report."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, h, tt.query)
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
			assert.Equal(t, tt.want, a.got)
			var out answer
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
			assert.Equal(t, tt.id, out.QueryID)
			require.Len(t, out.Results, 2)
			assert.JSONEq(t, items, "["+string(out.Results[0])+","+string(out.Results[1])+"]")
			assert.Equal(t, tt.summary, out.Summary)
			assert.Equal(t, tt.answer, out.Answer)
		})
	}
}

func TestPost(t *testing.T) {
	a := &asker{}
	h := nlweb.Handler(a)
	for _, tt := range []struct {
		name, contentType, body string
	}{
		{"a form", "application/x-www-form-urlencoded", "query=what+changed%3F&prev=a,b&streaming=false"},
		{"a JSON object", "application/json", `{"query":"what changed?","prev":["a","b"],"streaming":false}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/ask", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", tt.contentType)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			assert.Equal(t, server.AskRequest{Query: "what changed?", Format: "nlweb", Prev: []string{"a", "b"}}, a.got)
		})
	}
}

// messages reads a stream's messages.
func messages(t *testing.T, body io.Reader) []map[string]any {
	var out []map[string]any
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			require.Empty(t, sc.Text(), "every line is a data field or the blank line ending a message")
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(data), &m), data)
		out = append(out, m)
	}
	return out
}

func types(msgs []map[string]any) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m["message_type"].(string))
	}
	return out
}

func TestStreaming(t *testing.T) {
	h := nlweb.Handler(&asker{})
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"query=what+changed%3F", []string{"intermediate_message", "result_batch", "complete"}},
		{"query=what+changed%3F&mode=summarize", []string{"intermediate_message", "summary", "result_batch", "complete"}},
		{"query=what+changed%3F&mode=generate&streaming=true", []string{"intermediate_message", "nlws", "complete"}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			rec := get(t, h, tt.query+"&query_id=q1")
			require.Equal(t, http.StatusOK, rec.Code)
			assert.Equal(t, "text/event-stream", rec.Header().Get("Content-Type"))
			msgs := messages(t, rec.Body)
			assert.Equal(t, tt.want, types(msgs))
			for _, m := range msgs {
				assert.Equal(t, "q1", m["query_id"])
			}
			assert.Equal(t, "Looking into: Recent commits explain the change", msgs[0]["message"])
		})
	}
}

func TestRefuses(t *testing.T) {
	for _, tt := range []struct {
		query string
		err   error
		code  int
		want  string
	}{
		{"site=all", nil, 400, "query: the question is empty"},
		{"query=q&site=seriouseats", nil, 400, `site "seriouseats": this server answers for "Deep Research Module" (or all)`},
		{"query=q&streaming=maybe", nil, 400, `streaming "maybe": want true or false`},
		{"query=q&mode=chat", nil, 400, `mode "chat": want list, summarize or generate`},
		{"query=q", server.ErrBusy, 429, "too many runs"},
		{"query=q&streaming=false", &server.RequestError{Field: "prev", Msg: "earlier question 1"}, 400, "prev: earlier question 1"},
		{"query=q", server.ErrDraining, 503, "shutting down"},
	} {
		t.Run(tt.query, func(t *testing.T) {
			rec := get(t, nlweb.Handler(&asker{err: tt.err}), tt.query)
			assert.Equal(t, tt.code, rec.Code)
			assert.Equal(t, "application/json", rec.Header().Get("Content-Type"), "refused before the stream starts: a plain error")
			var out map[string]string
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
			assert.Contains(t, out["error"], tt.want)
		})
	}
}

func FuzzParams(f *testing.F) {
	f.Add("query=q&prev=a,b&streaming=false&mode=list")
	f.Add(`query=q&prev=["a",1]`)
	f.Add("query=%zz")
	f.Fuzz(func(t *testing.T, raw string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/ask", nil)
		req.URL.RawQuery = raw
		nlweb.Handler(&asker{}).ServeHTTP(rec, req)
		assert.Contains(t, []int{200, 400}, rec.Code)
	})
}
