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
