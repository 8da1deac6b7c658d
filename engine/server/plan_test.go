package server_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
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

// TestPlanCacheFollowsReloads: a question asked again is answered from the
// cache with the same bytes, until a reload brings rules that plan it
// differently; a body spelled differently is planned again; an error is
// never cached.
func TestPlanCacheFollowsReloads(t *testing.T) {
	dir := rulesDir(t)
	var rel releases
	r := newReloader(t, dir, loaderOf(dir, &rel), server.ReloadConfig{})
	s := start(t, newFixtures(t), server.Config{Snapshots: r})
	const body = `{"query":"what is our onboarding guide?"}`
	plan := func(body string) (int, string) {
		resp, out := s.do(t, "POST", "/v1/plan", body)
		return resp.StatusCode, string(out)
	}
	code, first := plan(body)
	require.Equal(t, http.StatusOK, code, first)
	assert.NotContains(t, first, "query_onboarding")
	_, again := plan(body)
	assert.Equal(t, first, again)
	_, spaced := plan(` {"query": "what is our onboarding guide?"} `)
	assert.Equal(t, first, spaced, "the same request spelled otherwise plans the same")
	for range 2 {
		code, _ = plan(`{"query":"x","mode":"nosuch"}`)
		assert.Equal(t, http.StatusBadRequest, code)
	}
	assert.Equal(t, map[string]int{"miss": 4, "hit": 1}, planCounts(t, s))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "onboarding.hcl"), []byte(onboardingIntent), 0o600))
	require.True(t, r.Reload(context.Background()).OK)
	_, reloaded := plan(body)
	assert.Contains(t, reloaded, "query_onboarding", "the new rules plan it, not the cache of the old ones")
	_, again = plan(body)
	assert.Equal(t, reloaded, again)
	assert.Equal(t, map[string]int{"miss": 5, "hit": 2}, planCounts(t, s))
}

// planCounts reads nous_plans_total from /metrics, by cache outcome.
func planCounts(t *testing.T, s *testServer) map[string]int {
	t.Helper()
	_, out := s.do(t, "GET", "/metrics", nil)
	counts := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^nous_plans_total\{cache="(\w+)"\} (\d+)$`).FindAllStringSubmatch(string(out), -1) {
		counts[m[1]], _ = strconv.Atoi(m[2])
	}
	return counts
}
