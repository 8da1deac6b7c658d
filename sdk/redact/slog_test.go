package redact

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
)

type stringer string

func (s stringer) String() string { return string(s) }

func TestHandler(t *testing.T) {
	var buf bytes.Buffer
	r := New("tok-123456")
	log := slog.New(r.Handler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log = log.With("base", "with tok-123456").WithGroup("g")
	log.Debug("using tok-123456", "err", errors.New("401 for tok-123456"), "s", stringer("x tok-123456"),
		"n", 3, slog.Group("sub", "k", "tok-123456"))
	out := buf.String()
	assert.NotContains(t, out, "tok-123456")
	for _, want := range []string{`msg="using [REDACTED]"`, `base="with [REDACTED]"`, `g.err="401 for [REDACTED]"`, `g.s="x [REDACTED]"`, "g.n=3", `g.sub.k=[REDACTED]`} {
		assert.Contains(t, out, want)
	}

	var plain bytes.Buffer
	h := slog.NewTextHandler(&plain, nil)
	assert.Same(t, h, (*Redactor)(nil).Handler(h), "nothing to hide: the handler itself")
}

// A map or list attribute (a record's fields, say) is masked member by
// member, as Args masks them.
func TestHandlerMasksMapsAndLists(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(New("tok-123456").Handler(slog.NewJSONHandler(&buf, nil)))
	log.Info("fetched", "fields", map[string]any{"note": "tok-123456"}, "argv", []any{"--token", "tok-123456"})
	out := buf.String()
	assert.NotContains(t, out, "tok-123456")
	assert.Contains(t, out, `"fields":{"note":"[REDACTED]"}`)
	assert.Contains(t, out, `"argv":["--token","[REDACTED]"]`)
}
