package plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var _ engine.Grounding = (*plugin.Manager)(nil)

// valueWrongCount makes the echo source answer one term fewer than asked.
const valueWrongCount = "wrongcount"

var echoTagTime = time.Date(2026, 10, 30, 9, 0, 0, 0, time.UTC)

// Ground knows the tag v1.0.0, the project PAY (any case) and the path
// docs/; a term whose value is one of the misbehaviour queries misbehaves.
func (s *echoSource) Ground(_ context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	resp := sdk.GroundResponse{
		Terms:    make([]sdk.GroundedTerm, len(req.Terms)),
		Coverage: sdk.Coverage{Name: "echo", Earliest: echoTagTime, Latest: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
	}
	for i, t := range req.Terms {
		if t.Value == valueWrongCount {
			resp.Terms = resp.Terms[:len(req.Terms)-1]
			return resp, nil
		}
		if err := s.misbehave(t.Value); err != nil {
			return sdk.GroundResponse{}, err
		}
		g := sdk.GroundedTerm{Kind: t.Kind, Value: t.Value}
		switch {
		case t.Kind == sdk.TermRef && t.Value == "v1.0.0":
			g.Known, g.ID, g.Time = true, strings.Repeat("1f", 20), echoTagTime
		case t.Kind == sdk.TermProject && strings.EqualFold(t.Value, "pay"):
			g.Known, g.Canonical = true, []string{"PAY"}
		case t.Kind == sdk.TermPath && t.Value == "docs/":
			g.Known = true
		default:
			g.Note = "echo does not know it"
		}
		resp.Terms[i] = g
	}
	return resp, nil
}

// plainSource is a Source without Ground: the embedded interface hides
// echoSource's Ground method.
type plainSource struct{ sdk.Source }

func groundReq(kv ...string) sdk.GroundRequest {
	var req sdk.GroundRequest
	for i := 0; i+1 < len(kv); i += 2 {
		req.Terms = append(req.Terms, sdk.Term{Kind: kv[i], Value: kv[i+1]})
	}
	return req
}

func TestGroundThroughAPluginProcess(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	got, err := m.Ground(context.Background(), "docs", groundReq(sdk.TermRef, "v1.0.0", sdk.TermProject, "pay", sdk.TermAuthor, "ana", sdk.TermPath, "docs/"))
	require.NoError(t, err)
	assert.Equal(t, sdk.GroundResponse{
		Terms: []sdk.GroundedTerm{
			{Kind: sdk.TermRef, Value: "v1.0.0", Known: true, ID: strings.Repeat("1f", 20), Time: echoTagTime},
			{Kind: sdk.TermProject, Value: "pay", Known: true, Canonical: []string{"PAY"}},
			{Kind: sdk.TermAuthor, Value: "ana", Note: "echo does not know it"},
			{Kind: sdk.TermPath, Value: "docs/", Known: true},
		},
		Filters:  []string{"n"}, // from Describe: the plugin left them empty
		Coverage: sdk.Coverage{Name: "echo", Earliest: echoTagTime, Latest: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
	}, got)
	assert.NotZero(t, m.PIDs()["source/docs"], "Ground starts the plugin on demand")
}

func TestGroundOfPluginsThatCannotGround(t *testing.T) {
	tests := []struct {
		ref     string
		note    string
		filters []string
	}{
		{"builtin:nogroup", "does not ground terms", []string{"n"}},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{}, source("docs", tt.ref))
			got, err := m.Ground(context.Background(), "docs", groundReq(sdk.TermRef, "v1.0.0", sdk.TermProject, "pay"))
			require.NoError(t, err, "a plugin that cannot ground is not a failure")
			require.Len(t, got.Terms, 2)
			for i, want := range []string{"v1.0.0", "pay"} {
				assert.Equal(t, want, got.Terms[i].Value)
				assert.False(t, got.Terms[i].Known)
				assert.Contains(t, got.Terms[i].Note, tt.note)
			}
			assert.Equal(t, tt.filters, got.Filters)
		})
	}
}

func TestGroundWrongNumberOfTermsNamesThePlugin(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	_, err := m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, "docs/", sdk.TermPath, valueWrongCount))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plugin docs (builtin:echo): Ground: ground: the plugin answered 1 terms for the 2 asked")
	pid := m.PIDs()["source/docs"]
	_, err = m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, "docs/"))
	require.NoError(t, err)
	assert.Equal(t, pid, m.PIDs()["source/docs"], "a wrong answer does not cost the process")
}

func TestGroundCrashRestartsOnNextCall(t *testing.T) {
	m, logs := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	_, err := m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, "docs/"))
	require.NoError(t, err)
	first := m.PIDs()["source/docs"]

	_, err = m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, queryCrash))
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrUnavailable)
	assert.Contains(t, err.Error(), "plugin docs (builtin:echo) exited unexpectedly: panic: echo: corrupted state, giving up")
	assert.Contains(t, err.Error(), "during Ground; it restarts on the next call")
	assert.False(t, processAlive(first))
	assert.Contains(t, logs.String(), "plugin exited unexpectedly")

	got, err := m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, "docs/"))
	require.NoError(t, err, "the next call restarts the plugin")
	assert.True(t, got.Terms[0].Known)
	assert.NotEqual(t, first, m.PIDs()["source/docs"])
}

func TestGroundHangIsKilledAtItsDeadline(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, plugin.Spec{Name: "docs", Kind: plugin.KindSource, Ref: "builtin:echo", Timeout: 300 * time.Millisecond})
	_, err := m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, "docs/"))
	require.NoError(t, err)
	pid := m.PIDs()["source/docs"]

	_, err = m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, queryHang))
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	assert.Contains(t, err.Error(), "plugin docs (builtin:echo): Ground did not finish within its deadline (300ms)")
	assert.True(t, waitFor(t, 5*time.Second, func() bool { return !processAlive(pid) }), "the hung process is gone")

	_, err = m.Ground(context.Background(), "docs", groundReq(sdk.TermPath, "docs/"))
	require.NoError(t, err)
}

func TestGroundErrorsAreRedactedAndKeepTheirKind(t *testing.T) {
	const token = "glpat-s3cr3t-t0ken"
	m, logs := newManager(t, plugin.Options{Redactor: redact.New(token)},
		plugin.Spec{Name: "gl", Kind: plugin.KindSource, Ref: "builtin:echo", Config: json.RawMessage(`{"token":"` + token + `"}`)})
	_, err := m.Ground(context.Background(), "gl", groundReq(sdk.TermProject, querySecret))
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrUnauthorized)
	assert.NotContains(t, err.Error(), token)
	assert.Contains(t, err.Error(), "plugin gl (builtin:echo): Ground: token [REDACTED] rejected")
	assert.NotContains(t, logs.String(), token)
}

func TestGroundOverLimitRequestsAreBadRequests(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	many := sdk.GroundRequest{Terms: make([]sdk.Term, sdk.MaxGroundTerms+1)}
	for i := range many.Terms {
		many.Terms[i] = sdk.Term{Kind: sdk.TermPath, Value: fmt.Sprint("p", i)}
	}
	tests := []struct {
		name string
		req  sdk.GroundRequest
		want string
	}{
		{"too many terms", many, "257 terms, at most 256 are allowed"},
		{"long value", groundReq(sdk.TermAuthor, strings.Repeat("a", 300)), "terms[0] (author): value is 300 bytes, at most 256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := m.Ground(context.Background(), "docs", tt.req)
			require.ErrorIs(t, err, sdk.ErrBadRequest)
			assert.Contains(t, err.Error(), "plugin docs (builtin:echo): Ground: ground request: "+tt.want)
		})
	}
}

func TestGroundOfAnUndeclaredSource(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	_, err := m.Ground(context.Background(), "gitlab", groundReq(sdk.TermPath, "docs/"))
	require.EqualError(t, err, `no source named "gitlab" is declared`)
}
