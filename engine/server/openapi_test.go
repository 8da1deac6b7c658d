package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/server"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exchange is one request of the conformance test and the status it gets.
type exchange struct {
	method, path string
	body         string
	header       []string
	code         int
	outside      bool // the request breaks the document on purpose: only the response is checked
}

// TestOpenAPIConformance sends every route the requests that give each
// documented response and checks every request and response against the
// OpenAPI document; every operation it documents must be exercised.
func TestOpenAPIConformance(t *testing.T) {
	doc, err := libopenapi.NewDocument(server.OpenAPI)
	require.NoError(t, err)
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	ok, verrs := v.ValidateDocument()
	require.True(t, ok, "the document is valid OpenAPI 3.1: %v", verrs)

	p := newFixtures(t)
	s := start(t, p, server.Config{MaxBody: 4096, Token: "tok"})
	ask := fmt.Sprintf(`{"query":%q}`, question)
	var exchanges []exchange
	for _, format := range []string{"json", "text", "markdown", "nlweb"} {
		exchanges = append(exchanges, exchange{"POST", "/v1/ask", fmt.Sprintf(`{"query":%q,"format":%q}`, question, format), nil, 200, false})
	}
	exchanges = append(exchanges,
		exchange{"POST", "/v1/ask", ask, []string{"Accept", "text/event-stream"}, 200, false},
		exchange{"POST", "/v1/ask", `{"query":"x","mode":"nosuch"}`, nil, 400, false},
		exchange{"POST", "/v1/ask", `{"query":"` + strings.Repeat("x", 5000) + `"}`, nil, 413, false},
		exchange{"POST", "/v1/plan", ask, nil, 200, false},
		exchange{"POST", "/v1/plan", `{"query":"x","mode":"nosuch"}`, nil, 400, false},
		exchange{"POST", "/v1/plan", `{"query":"` + strings.Repeat("x", 5000) + `"}`, nil, 413, false},
		exchange{"GET", "/v1/runs", "", nil, 200, false},
		exchange{"GET", "/v1/runs?limit=2", "", nil, 200, false},
		exchange{"GET", "/v1/runs?limit=0", "", nil, 400, true},
		exchange{"GET", "/v1/runs/nosuch", "", nil, 404, false},
		exchange{"DELETE", "/v1/runs/nosuch", "", nil, 404, false},
		exchange{"GET", "/v1/rules", "", nil, 200, false},
		exchange{"GET", "/v1/openapi.json", "", nil, 200, false},
		exchange{"GET", "/healthz", "", nil, 200, false},
		exchange{"GET", "/readyz", "", nil, 200, false},
		exchange{"GET", "/metrics", "", nil, 200, false},
		exchange{"GET", "/v1/rules", "", []string{"Authorization", "Bearer wrong"}, 401, false},
	)
	exercised := map[string]bool{}
	check := func(t *testing.T, e exchange) *http.Response {
		t.Helper()
		resp, body := send(t, s, e)
		assert.Equal(t, e.code, resp.StatusCode, string(body))
		req := request(t, s, e)
		resp.Body = io.NopCloser(bytes.NewReader(body))
		validate := v.ValidateHttpRequestResponse
		if e.outside {
			validate = v.ValidateHttpResponse
		}
		ok, verrs := validate(req, resp)
		for _, ve := range verrs {
			assert.Failf(t, "does not match the OpenAPI document", "%s %s → %d: %s: %s %v", e.method, e.path, resp.StatusCode,
				ve.Message, ve.Reason, ve.SchemaValidationErrors)
		}
		assert.True(t, ok)
		exercised[e.method+" "+pathTemplate(e.path)] = true
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return resp
	}
	for _, e := range exchanges {
		t.Run(fmt.Sprintf("%s %s %d", e.method, e.path[:min(len(e.path), 40)], e.code), func(t *testing.T) { check(t, e) })
	}
	t.Run("a run by its ID, cancelling one that ended", func(t *testing.T) {
		resp := check(t, exchange{"POST", "/v1/ask", ask, nil, 200, false})
		id := resp.Header.Get("Nous-Run-Id")
		check(t, exchange{"GET", "/v1/runs/" + id, "", nil, 200, false})
		check(t, exchange{"DELETE", "/v1/runs/" + id, "", nil, 409, false})
	})
	t.Run("cancelling a running and a queued run, refusing one over the cap", func(t *testing.T) {
		gated := newFixtures(t)
		gated.gate = make(chan struct{})
		g := start(t, gated, server.Config{MaxRuns: 1, Queue: 1, Token: "tok"})
		running := asyncAsk(t, g, map[string]any{"query": question}, "Authorization", "Bearer tok")
		<-gated.fetched
		// Of three more asks one waits in the queue and two are refused,
		// first: the waiting one cannot answer before the gate opens.
		later := make(chan *http.Response, 3)
		for range 3 {
			go func() { later <- <-asyncAsk(t, g, map[string]any{"query": question}, "Authorization", "Bearer tok") }()
		}
		for range 2 {
			resp := <-later
			require.NotNil(t, resp)
			assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
			ok, verrs := v.ValidateHttpResponse(request(t, g, exchange{"POST", "/v1/ask", ask, nil, 429, false}), resp)
			assert.True(t, ok, "%v", verrs)
			resp.Body.Close()
		}
		// The queued run is listed once it has its place.
		withStatus(t, g, server.StatusQueued)
		_, body := send(t, g, exchange{"GET", "/v1/runs", "", nil, 200, false})
		var list struct{ Runs []server.Run }
		require.NoError(t, json.Unmarshal(body, &list))
		var statuses []string
		for _, r := range list.Runs {
			statuses = append(statuses, r.Status)
			if r.Status == server.StatusRunning || r.Status == server.StatusQueued {
				resp, body := send(t, g, exchange{"DELETE", "/v1/runs/" + r.ID, "", nil, 202, false})
				assert.Equal(t, http.StatusAccepted, resp.StatusCode)
				resp.Body = io.NopCloser(bytes.NewReader(body))
				ok, verrs := v.ValidateHttpRequestResponse(request(t, g, exchange{"DELETE", "/v1/runs/" + r.ID, "", nil, 202, false}), resp)
				assert.True(t, ok, "%v", verrs)
			}
		}
		assert.ElementsMatch(t, []string{server.StatusRunning, server.StatusQueued}, statuses, "the queued run is listed")
		close(gated.gate)
		for _, c := range []<-chan *http.Response{running, later} {
			if r := <-c; r != nil {
				r.Body.Close()
			}
		}
	})

	var documented map[string]map[string]any
	var raw struct{ Paths map[string]map[string]any }
	require.NoError(t, json.Unmarshal(server.OpenAPI, &raw))
	documented = raw.Paths
	for path, item := range documented {
		for method := range item {
			if slices.Contains([]string{"get", "post", "delete", "put", "patch"}, method) {
				assert.True(t, exercised[strings.ToUpper(method)+" "+path], "%s %s is documented but not exercised", method, path)
			}
		}
	}
}

// pathTemplate is the documented path of a request path.
func pathTemplate(path string) string {
	path, _, _ = strings.Cut(path, "?")
	if rest, ok := strings.CutPrefix(path, "/v1/runs/"); ok && rest != "" {
		return "/v1/runs/{id}"
	}
	return path
}

func request(t *testing.T, s *testServer, e exchange) *http.Request {
	t.Helper()
	var body io.Reader
	if e.body != "" {
		body = strings.NewReader(e.body)
	}
	req, err := http.NewRequest(e.method, s.url+e.path, body)
	require.NoError(t, err)
	if e.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	for i := 0; i+1 < len(e.header); i += 2 {
		req.Header.Set(e.header[i], e.header[i+1])
	}
	return req
}

func send(t *testing.T, s *testServer, e exchange) (*http.Response, []byte) {
	t.Helper()
	resp, err := s.client.Do(request(t, s, e))
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

// GET /v1/rules with the plugins' problems of its sources and agents
// matches the document.
func TestOpenAPIRulesWithPluginProblems(t *testing.T) {
	doc, err := libopenapi.NewDocument(server.OpenAPI)
	require.NoError(t, err)
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	snap := server.NewSnapshot(defaultRules(t), newFixtures(t), nil, nil)
	snap.Sources = []server.PluginStatus{{Name: "gitlab", Plugin: "builtin:git", Diagnostics: []server.Diagnostic{
		{Range: "sources.hcl:20:1", Severity: "error", Summary: `source "gitlab": config.path: git: not a git repository`}}}}
	snap.Agents = []server.PluginStatus{{Name: "analyst", Plugin: "builtin:template", Diagnostics: []server.Diagnostic{}}}
	srv := server.New(server.Config{Snapshots: server.Static(snap)})
	req := httptest.NewRequest("GET", "/v1/rules", nil)
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	assert.Contains(t, rec.Body.String(), "not a git repository")
	ok, verrs := v.ValidateHttpResponse(req, rec.Result())
	assert.True(t, ok, "%v", verrs)
}
