package host2plugin_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// groundingSource is a fakeSource that also grounds terms.
type groundingSource struct {
	*fakeSource
	ground func(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error)
}

func (g *groundingSource) Ground(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	return g.ground(ctx, req)
}

// knownPaths grounds path terms against a fixed tree, case-insensitively.
func knownPaths(paths ...string) func(context.Context, sdk.GroundRequest) (sdk.GroundResponse, error) {
	return func(_ context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
		resp := sdk.GroundResponse{Terms: make([]sdk.GroundedTerm, len(req.Terms))}
		for i, t := range req.Terms {
			resp.Terms[i] = sdk.GroundedTerm{Kind: t.Kind, Value: t.Value, Note: "no such path"}
			for _, p := range paths {
				if t.Kind == sdk.TermPath && strings.Contains(strings.ToLower(p), strings.ToLower(t.Value)) {
					resp.Terms[i].Known = true
					resp.Terms[i].Note = ""
					resp.Terms[i].Canonical = append(resp.Terms[i].Canonical, p)
				}
			}
		}
		return resp, nil
	}
}

func terms(kv ...string) sdk.GroundRequest {
	var req sdk.GroundRequest
	for i := 0; i+1 < len(kv); i += 2 {
		req.Terms = append(req.Terms, sdk.Term{Kind: kv[i], Value: kv[i+1]})
	}
	return req
}

func TestGroundCrossesTheWireWhole(t *testing.T) {
	tagTime := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	want := sdk.GroundResponse{
		Terms: []sdk.GroundedTerm{
			{Kind: sdk.TermRef, Value: "v1.17.0", Known: true, Canonical: []string{"v1.17.0"}, ID: strings.Repeat("ab", 20), Time: tagTime},
			{Kind: sdk.TermAuthor, Value: "radek", Known: true, Canonical: []string{"Radek Simko <radek@example.com>", "Radek S <rs@example.org>"}, Note: "matched by name"},
			{Kind: sdk.TermLabel, Value: "ünïcødé", Note: "labels are not grounded"},
		},
		Filters: []string{"paths", "authors"},
		Coverage: sdk.Coverage{Earliest: tagTime.Add(-time.Hour), Latest: tagTime, Truncated: "shallow clone at abc", Name: "hashicorp/hcl",
			Remote: &sdk.Remote{Host: "gitlab.com", Path: "group/sub/hcl", Kind: sdk.RemoteGitLab}},
	}
	src := sdktest.Source(t, &groundingSource{
		fakeSource: &fakeSource{info: sdk.SourceInfo{Filters: []string{"ignored"}}},
		ground:     func(context.Context, sdk.GroundRequest) (sdk.GroundResponse, error) { return want, nil },
	})
	got, err := sdktest.Ground(context.Background(), src, terms(sdk.TermRef, "v1.17.0", sdk.TermAuthor, "radek", sdk.TermLabel, "ünïcødé"))
	require.NoError(t, err)
	assert.Equal(t, want, got, "the plugin's own filters win over Describe's")
}

func TestGroundFillsFiltersFromDescribe(t *testing.T) {
	src := sdktest.Source(t, &groundingSource{
		fakeSource: &fakeSource{info: sdk.SourceInfo{Filters: []string{"paths", "authors"}}},
		ground:     knownPaths("hclwrite/ast.go", "hclsyntax/parser.go"),
	})
	got, err := sdktest.Ground(context.Background(), src, terms(sdk.TermPath, "HCLWRITE", sdk.TermPath, "docs/"))
	require.NoError(t, err)
	assert.Equal(t, sdk.GroundResponse{
		Terms: []sdk.GroundedTerm{
			{Kind: sdk.TermPath, Value: "HCLWRITE", Known: true, Canonical: []string{"hclwrite/ast.go"}},
			{Kind: sdk.TermPath, Value: "docs/", Note: "no such path"},
		},
		Filters: []string{"paths", "authors"},
	}, got)
}

func TestGroundOfASourceWithoutGroundIsAllUnknown(t *testing.T) {
	src := sdktest.Source(t, &fakeSource{info: sdk.SourceInfo{Filters: []string{"projects"}}})
	got, err := sdktest.Ground(context.Background(), src, terms(sdk.TermProject, "PAY", sdk.TermState, "open"))
	require.NoError(t, err)
	require.Len(t, got.Terms, 2)
	for i, want := range []sdk.Term{{Kind: sdk.TermProject, Value: "PAY"}, {Kind: sdk.TermState, Value: "open"}} {
		assert.Equal(t, want.Kind, got.Terms[i].Kind)
		assert.Equal(t, want.Value, got.Terms[i].Value)
		assert.False(t, got.Terms[i].Known)
		assert.Contains(t, got.Terms[i].Note, "does not ground")
	}
	assert.Equal(t, []string{"projects"}, got.Filters)
	assert.Zero(t, got.Coverage)
}

func TestGroundRejectsAnAnswerThatDoesNotMatchTheQuestion(t *testing.T) {
	req := terms(sdk.TermPath, "a", sdk.TermAuthor, "b")
	tests := []struct {
		name   string
		answer []sdk.GroundedTerm
		want   string
	}{
		{"too few", []sdk.GroundedTerm{{Kind: sdk.TermPath, Value: "a"}}, "answered 1 terms for the 2 asked"},
		{"none", nil, "answered 0 terms for the 2 asked"},
		{"too many", []sdk.GroundedTerm{{Kind: sdk.TermPath, Value: "a"}, {Kind: sdk.TermAuthor, Value: "b"}, {Kind: sdk.TermAuthor, Value: "b"}}, "answered 3 terms"},
		{"reordered", []sdk.GroundedTerm{{Kind: sdk.TermAuthor, Value: "b"}, {Kind: sdk.TermPath, Value: "a"}}, `terms[0] is for author "b", but the request's terms[0] is path "a"`},
		{"value rewritten", []sdk.GroundedTerm{{Kind: sdk.TermPath, Value: "a/"}, {Kind: sdk.TermAuthor, Value: "b"}}, `terms[0] is for path "a/"`},
		{"kind dropped", []sdk.GroundedTerm{{Kind: sdk.TermPath, Value: "a"}, {Value: "b", Known: true}}, `terms[1] is for  "b"`},
		{"too many canonical forms", []sdk.GroundedTerm{{Kind: sdk.TermPath, Value: "a", Known: true, Canonical: make([]string, sdk.MaxCanonical+1)}, {Kind: sdk.TermAuthor, Value: "b"}}, "65 canonical forms, at most 64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := sdktest.Source(t, &groundingSource{fakeSource: &fakeSource{}, ground: func(context.Context, sdk.GroundRequest) (sdk.GroundResponse, error) {
				return sdk.GroundResponse{Terms: tt.answer}, nil
			}})
			_, err := sdktest.Ground(context.Background(), src, req)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "ground: the plugin")
		})
	}
}

func TestGroundRequestBounds(t *testing.T) {
	called := false
	src := sdktest.Source(t, &groundingSource{fakeSource: &fakeSource{}, ground: func(_ context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
		called = true
		return knownPaths()(context.Background(), req)
	}})
	many := sdk.GroundRequest{}
	for i := range sdk.MaxGroundTerms + 1 {
		many.Terms = append(many.Terms, sdk.Term{Kind: sdk.TermPath, Value: fmt.Sprint("p", i)})
	}
	tests := []struct {
		name string
		req  sdk.GroundRequest
		want string
	}{
		{"too many terms", many, "257 terms, at most 256"},
		{"value too long", terms(sdk.TermPath, strings.Repeat("x", sdk.MaxTermBytes+1)), "terms[0] (path): value is 257 bytes, at most 256"},
		{"kind too long", terms(strings.Repeat("k", 300), "x"), "terms[0]: kind is 300 bytes"},
		{"empty value", terms(sdk.TermPath, "a", sdk.TermAuthor, ""), "terms[1] (author): empty value"},
		{"empty kind", terms("", "a"), "terms[0]: empty kind"},
		{"invalid UTF-8", terms(sdk.TermPath, "a\xffb"), "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sdktest.Ground(context.Background(), src, tt.req)
			require.ErrorIs(t, err, sdk.ErrBadRequest)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.False(t, called, "an over-limit request never reaches the plugin")

	// The limits themselves are allowed.
	atLimit := many
	atLimit.Terms = atLimit.Terms[:sdk.MaxGroundTerms]
	atLimit.Terms[0].Value = strings.Repeat("x", sdk.MaxTermBytes)
	got, err := sdktest.Ground(context.Background(), src, atLimit)
	require.NoError(t, err)
	assert.Len(t, got.Terms, sdk.MaxGroundTerms)
}

func TestGroundErrorsKeepTheirKind(t *testing.T) {
	tests := []struct {
		name string
		err  error
		kind sdk.ErrorKind
		msg  string
	}{
		{"not found", sdk.Errorf(sdk.KindNotFound, "project pay/api does not exist"), sdk.KindNotFound, "project pay/api does not exist"},
		{"unauthorized", sdk.Errorf(sdk.KindUnauthorized, "token rejected"), sdk.KindUnauthorized, "token rejected"},
		{"plain error", fmt.Errorf("disk full"), sdk.KindUnknown, "disk full"},
		{"context", context.DeadlineExceeded, sdk.KindDeadline, "deadline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := sdktest.Source(t, &groundingSource{fakeSource: &fakeSource{}, ground: func(context.Context, sdk.GroundRequest) (sdk.GroundResponse, error) {
				return sdk.GroundResponse{}, tt.err
			}})
			_, err := sdktest.Ground(context.Background(), src, terms(sdk.TermPath, "a"))
			require.Error(t, err)
			assert.Equal(t, tt.kind, sdk.KindOf(err), "%v", err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestGroundPanicIsAClearErrorAndTheNextCallWorks(t *testing.T) {
	src := sdktest.Source(t, &groundingSource{fakeSource: &fakeSource{}, ground: func(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
		if req.Terms[0].Value == "boom" {
			var m map[string]int
			m["x"]++ // a nil map write: the plugin's bug
		}
		return knownPaths("a.go")(ctx, req)
	}})
	_, err := sdktest.Ground(context.Background(), src, terms(sdk.TermPath, "boom"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "plugin panicked in Ground")
	got, err := sdktest.Ground(context.Background(), src, terms(sdk.TermPath, "a"))
	require.NoError(t, err)
	assert.True(t, got.Terms[0].Known)
}

func TestGroundDescribeFailureWhenFillingFiltersIsReported(t *testing.T) {
	src := sdktest.Source(t, &fakeSource{describe: func(context.Context) (sdk.SourceInfo, error) {
		return sdk.SourceInfo{}, sdk.Errorf(sdk.KindUnavailable, "index not loaded")
	}})
	_, err := sdktest.Ground(context.Background(), src, terms(sdk.TermPath, "a"))
	require.ErrorIs(t, err, sdk.ErrUnavailable)
	assert.Contains(t, err.Error(), "index not loaded")
}

func TestGroundHonoursTheCallersDeadline(t *testing.T) {
	src := sdktest.Source(t, &groundingSource{fakeSource: &fakeSource{}, ground: func(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
		<-ctx.Done()
		return sdk.GroundResponse{}, ctx.Err()
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := sdktest.Ground(ctx, src, terms(sdk.TermPath, "a"))
	require.ErrorIs(t, err, sdk.ErrDeadline)
}

func TestGroundCoverageOfOnlyARemoteCrossesTheWire(t *testing.T) {
	want := sdk.Coverage{Remote: &sdk.Remote{Host: "github.com", Path: "hashicorp/hcl", Kind: sdk.RemoteGitHub}}
	src := sdktest.Source(t, &groundingSource{
		fakeSource: &fakeSource{},
		ground: func(context.Context, sdk.GroundRequest) (sdk.GroundResponse, error) {
			return sdk.GroundResponse{Coverage: want}, nil
		},
	})
	got, err := sdktest.Ground(context.Background(), src, sdk.GroundRequest{})
	require.NoError(t, err)
	assert.Equal(t, want, got.Coverage)
}
