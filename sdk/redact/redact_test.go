package redact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

func TestString(t *testing.T) {
	r := New("glpat-SECRET", "glpat-SECRET-LONGER", "", "abc", `we"ird\tok`, "xyz-long-secret", "xyzw")
	tests := []struct{ in, want string }{
		{"token glpat-SECRET-LONGER here", "token [REDACTED] here"},
		{"token glpat-SECRET.", "token [REDACTED]."},
		{"a xyz-long-secret b xyzw", "a [REDACTED] b [REDACTED]"}, // the longer secret is hidden whole
		{"abc is too short to be a secret", "abc is too short to be a secret"},
		{`{"t":"we\"ird\\tok"}`, `{"t":"[REDACTED]"}`},
		{`raw we"ird\tok`, `raw [REDACTED]`},
		{"nothing here", "nothing here"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, r.String(tt.in))
		assert.Equal(t, tt.want, string(r.Bytes([]byte(tt.in))))
	}
	assert.Equal(t, "ab", New("ab").String("ab"), "too short to be a secret")

	var none *Redactor
	assert.Equal(t, "glpat-SECRET", none.String("glpat-SECRET"))
	assert.Equal(t, []byte("glpat-SECRET"), none.Bytes([]byte("glpat-SECRET")))
	assert.NoError(t, none.Error(nil))
}

func TestWithTokenShapes(t *testing.T) {
	r := New("my-local-key-42").WithTokenShapes()
	tests := map[string]string{
		"Authorization: Bearer abc.def-ghi":         "Authorization: Bearer [REDACTED]",
		"key my-local-key-42 rejected":              "key [REDACTED] rejected",
		"found sk-proj-AbC123_xyz-987 in the body":  "found [REDACTED] in the body",
		`{"auth":"bearer tok123","x":1}`:            `{"auth":"bearer [REDACTED]","x":1}`,
		"nothing secret here: sk- is just a prefix": "nothing secret here: sk- is just a prefix",
	}
	for in, want := range tests {
		assert.Equal(t, want, r.String(in), in)
	}
	assert.Equal(t, "Bearer [REDACTED]", (*Redactor)(nil).WithTokenShapes().String("Bearer x"), "shapes without values")
	assert.Equal(t, "Bearer x", New("my-local-key-42").String("Bearer x"), "shapes are opt-in")
}

func TestError(t *testing.T) {
	r := New("glpat-SECRET", "tok-123456")

	err := r.Error(fmt.Errorf("fetch: 401 with glpat-SECRET: %w", io.EOF))
	assert.Equal(t, "fetch: 401 with [REDACTED]: EOF", err.Error())
	assert.ErrorIs(t, err, io.EOF, "errors.Is still matches the cause")
	assert.Nil(t, errors.Unwrap(err), "the cause chain, which may hold the secret, is not reachable")

	err = r.Error(sdk.Errorf(sdk.KindUnauthorized, "bad token tok-123456: %w", errors.New("body tok-123456")))
	assert.Equal(t, "bad token [REDACTED]: body [REDACTED]", err.Error())
	assert.ErrorIs(t, err, sdk.ErrUnauthorized)
	assert.Equal(t, sdk.KindUnauthorized, sdk.KindOf(err))
	var se *sdk.Error
	require.True(t, errors.As(err, &se))
	assert.Equal(t, &sdk.Error{Kind: sdk.KindUnauthorized, Message: "bad token [REDACTED]: body [REDACTED]"}, se, "a masked copy without its cause")

	var pe *fs
	assert.True(t, errors.As(r.Error(fmt.Errorf("tok-123456: %w", &fs{})), &pe), "errors.As finds other types")

	canceled := fmt.Errorf("youtrack: %w", context.Canceled)
	assert.Same(t, canceled, r.Error(canceled), "nothing to mask: unchanged")
	assert.ErrorIs(t, r.Error(fmt.Errorf("tok-123456: %w", context.Canceled)), context.Canceled)
	assert.NoError(t, r.Error(nil))
}

type fs struct{}

func (*fs) Error() string { return "fs" }

func TestRecord(t *testing.T) {
	r := New("tok-123456")
	rec := r.Record(sdk.Record{ID: "1", Title: "tok-123456", URL: "https://x/?t=tok-123456", Fields: map[string]any{"a": "x tok-123456", "b": []string{"tok-123456"}, "n": int64(3)}})
	assert.Equal(t, "[REDACTED]", rec.Title)
	assert.Equal(t, "https://x/?t=[REDACTED]", rec.URL)
	assert.Equal(t, "x [REDACTED]", rec.Fields["a"])
	assert.Equal(t, []string{"[REDACTED]"}, rec.Fields["b"])
	assert.Equal(t, int64(3), rec.Fields["n"])
}

// The record handed in is the caller's: its Fields map and []string
// values are left as they were, so a record shared between goroutines can
// be masked by one of them.
func TestRecordLeavesItsArgumentAlone(t *testing.T) {
	r := New("tok-123456")
	in := sdk.Record{ID: "1", Fields: map[string]any{"a": "x tok-123456", "b": []string{"tok-123456", "ok"}}}
	out := r.Record(in)
	assert.Equal(t, "x [REDACTED]", out.Fields["a"])
	assert.Equal(t, []string{"[REDACTED]", "ok"}, out.Fields["b"])
	assert.Equal(t, map[string]any{"a": "x tok-123456", "b": []string{"tok-123456", "ok"}}, in.Fields)
}

func TestArgs(t *testing.T) {
	r := New("xyzw", "xyz-long-secret")
	assert.Equal(t, []any{"k", "[REDACTED]", "e", "[REDACTED] x", "n", 3},
		r.Args([]any{"k", "xyz-long-secret", "e", errors.New("xyzw x"), "n", 3}))
	args := []any{"k", "xyzw"}
	assert.Equal(t, args, (*Redactor)(nil).Args(args))
}

// A Stringer (a *url.URL carrying a token, say) is logged as its String(),
// so it is masked like a string, as the slog Handler already does.
func TestArgsMaskStringers(t *testing.T) {
	u, err := url.Parse("https://gitlab.example/api?private_token=xyz-long-secret")
	require.NoError(t, err)
	assert.Equal(t, []any{"url", "https://gitlab.example/api?private_token=[REDACTED]"},
		New("xyz-long-secret").Args([]any{"url", u}))
	clean := []any{"took", time.Second}
	assert.Equal(t, clean, New("xyz-long-secret").Args(clean), "a Stringer without a secret keeps its type")
}

// Decoded JSON (a plugin's log fields, re-emitted by the host) is masked
// member by member, at any depth.
func TestArgsMaskDecodedJSON(t *testing.T) {
	nested := []any{"fields", map[string]any{"headers": map[string]any{"PRIVATE-TOKEN": "xyz-long-secret"}, "argv": []any{"--token", "xyz-long-secret"}, "n": 3.0}}
	assert.Equal(t, []any{"fields", map[string]any{"headers": map[string]any{"PRIVATE-TOKEN": "[REDACTED]"}, "argv": []any{"--token", "[REDACTED]"}, "n": 3.0}},
		New("xyz-long-secret").Args(nested))
}

func TestSecretKey(t *testing.T) {
	for key, want := range map[string]bool{
		"token": true, "GITLAB_TOKEN": true, "api_key": true, "apiKey": true, "client_secret": true,
		"password": true, "Authorization": true, "base_url": false, "model": false,
	} {
		assert.Equal(t, want, SecretKey(key), key)
	}
}

func BenchmarkString(b *testing.B) {
	r := New("glpat-SECRET-0123456789", "sk-live-abcdef0123456789")
	line := "GET https://gitlab.example.com/api/v4/projects/1/repository/commits?page=3 failed: 502 Bad Gateway, retrying"
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(line)
	}
}
