package youtrack

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

func TestGround(t *testing.T) {
	h := newHarness(t, "/youtrack")
	resp := plugintest.Ground(t, h.source,
		sdk.Term{Kind: sdk.TermProject, Value: "abc"},
		sdk.Term{Kind: sdk.TermProject, Value: "delivery frontend"},
		sdk.Term{Kind: sdk.TermProject, Value: "XYZ"},
		sdk.Term{Kind: sdk.TermState, Value: "in progress"},
		sdk.Term{Kind: sdk.TermState, Value: "unresolved"},
		sdk.Term{Kind: sdk.TermState, Value: "Closed"},
		sdk.Term{Kind: sdk.TermState, Value: "Wontfix"},
		sdk.Term{Kind: sdk.TermLabel, Value: "regression"},
	)
	want := []sdk.GroundedTerm{
		{Kind: sdk.TermProject, Value: "abc", Known: true, Canonical: []string{"ABC"}},
		{Kind: sdk.TermProject, Value: "delivery frontend", Known: true, Canonical: []string{"DEF"}},
		{Kind: sdk.TermProject, Value: "XYZ", Note: "no YouTrack project of this name that the token can see"},
		{Kind: sdk.TermState, Value: "in progress", Known: true, Canonical: []string{"In Progress"}},
		{Kind: sdk.TermState, Value: "unresolved", Known: true, Canonical: []string{"Open", "In Progress", "Submitted"}, Note: "the unresolved states (#Unresolved)"},
		{Kind: sdk.TermState, Value: "Closed", Known: true, Canonical: []string{"Fixed", "Verified"}, Note: "the resolved states (#Resolved)"},
		{Kind: sdk.TermState, Value: "Wontfix", Note: "no YouTrack state of this name that the token can see"},
		{Kind: sdk.TermLabel, Value: "regression", Note: "the youtrack source grounds project and state terms only"},
	}
	assert.Equal(t, want, resp.Terms)
	assert.Equal(t, Filters, resp.Filters)

	// Every grounded state finds issues when fetched by it.
	for _, g := range resp.Terms {
		if g.Kind != sdk.TermState || !g.Known {
			continue
		}
		for _, form := range g.Canonical {
			records, err := h.fetch(t, sdk.FetchRequest{Filters: map[string][]string{"statuses": {form}}})
			require.NoError(t, err)
			assert.NotEmpty(t, records, "state %q", form)
		}
	}
}

func TestGroundReadsOnlyTheListsItNeeds(t *testing.T) {
	h := newHarness(t, "/youtrack")
	plugintest.Ground(t, h.source, sdk.Term{Kind: sdk.TermProject, Value: "ABC"})
	reqs := strings.Join(h.fake.Requests(), "\n")
	assert.Contains(t, reqs, "/youtrack/api/admin/projects?")
	assert.Contains(t, reqs, "fields=name%2CshortName%2Carchived")
	assert.NotContains(t, reqs, "bundles/state")
}

func TestGroundPagesThroughManyProjects(t *testing.T) {
	h := newHarness(t, "/youtrack")
	per := map[string]int{}
	for i := range 250 {
		per[fmt.Sprintf("P%03d", i)] = 1
	}
	h.fake.Issues = fakes.GenerateYouTrackIssues(per)
	resp := plugintest.Ground(t, h.source, sdk.Term{Kind: sdk.TermProject, Value: "p249"}, sdk.Term{Kind: sdk.TermProject, Value: "p000"})
	assert.Equal(t, []string{"P249"}, resp.Terms[0].Canonical)
	assert.Equal(t, []string{"P000"}, resp.Terms[1].Canonical)
	assert.Equal(t, 3, strings.Count(strings.Join(h.fake.Requests(), "\n"), "/api/admin/projects"), "three pages of 100")
}

func TestGroundFailures(t *testing.T) {
	tests := []struct {
		name  string
		fault fakes.Fault
		kind  error
	}{
		{"token rejected", fakes.Fault{PathContains: "/api/admin/", Times: 1, Status: http.StatusUnauthorized, Body: `{"error":"Unauthorized","error_description":"Invalid token"}`}, sdk.ErrUnauthorized},
		{"server down", fakes.Fault{PathContains: "/api/admin/", Times: 100, Status: http.StatusServiceUnavailable, Body: "down"}, sdk.ErrUnavailable},
		{"rate limited", fakes.Fault{PathContains: "/api/admin/", Times: 100, Status: http.StatusTooManyRequests, Body: "slow down"}, sdk.ErrRateLimited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "/youtrack")
			h.fake.Fail(tt.fault)
			_, err := sdktest.Ground(context.Background(), sdktest.Source(t, h.source), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermState, Value: "Open"}}})
			require.ErrorIs(t, err, tt.kind)
			assert.NotContains(t, err.Error(), testToken)
		})
	}
}

func TestGroundBeforeConfigure(t *testing.T) {
	_, err := New().Ground(context.Background(), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "ABC"}}})
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
}
