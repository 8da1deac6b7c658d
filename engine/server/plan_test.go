package server_test

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanResponse: /v1/plan answers with the bytes `nous plan --format
// json` prints for the same rules and secrets, with their length and not
// chunked, whatever answer its reused buffer held before (a long plan, an
// error, a short plan, in turn).
func TestPlanResponse(t *testing.T) {
	fx := newFixtures(t)
	s := start(t, fx, server.Config{})
	rs := defaultRules(t)
	planner := engine.NewPlanner(rs)
	want := func(q string) string {
		p, err := planner.Plan(context.Background(), engine.Request{Query: q})
		require.NoError(t, err)
		engine.ValidatePlan(p, engine.SourceFactsFromRules(rs))
		var b bytes.Buffer
		require.NoError(t, render.Write(&b, p, "json", redact.New("test-token")))
		return b.String()
	}
	for range 3 {
		for _, q := range append(planQuestions, "x", "the test-token leaks?") {
			resp, body := s.do(t, "POST", "/v1/plan", map[string]string{"query": q})
			require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
			assert.Equal(t, want(q), string(body), q)
			assert.Equal(t, strconv.Itoa(len(body)), resp.Header.Get("Content-Length"), q)
			assert.Empty(t, resp.TransferEncoding, q)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			assert.NotContains(t, string(body), "test-token")

			resp, body = s.do(t, "POST", "/v1/plan", `{"query":"x","mode":"nosuch"}`)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode, string(body))
		}
	}
}
