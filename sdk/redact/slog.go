package redact

import (
	"context"
	"log/slog"
)

// Handler returns a slog.Handler that masks every secret in the message
// and in the attributes (strings, errors, Stringers, groups, and the
// members of map[string]any and []any values) before h sees them.
func (r *Redactor) Handler(h slog.Handler) slog.Handler {
	if !r.active() {
		return h
	}
	return &handler{h: h, r: r}
}

type handler struct {
	h slog.Handler
	r *Redactor
}

func (h *handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.h.Enabled(ctx, level)
}

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.r.attr(a))
		return true
	})
	return h.h.Handle(ctx, out)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		masked[i] = h.r.attr(a)
	}
	return &handler{h: h.h.WithAttrs(masked), r: h.r}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{h: h.h.WithGroup(name), r: h.r}
}

// attr masks a's value: strings, errors and Stringers become masked
// strings, groups and JSON-shaped maps and lists are masked member by
// member, other kinds stay.
func (r *Redactor) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, r.String(v.String()))
	case slog.KindGroup:
		group := v.Group()
		masked := make([]any, len(group))
		for i, g := range group {
			masked[i] = r.attr(g)
		}
		return slog.Group(a.Key, masked...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, r.String(x.Error()))
		case interface{ String() string }:
			return slog.String(a.Key, r.String(x.String()))
		case map[string]any, []any:
			return slog.Any(a.Key, r.value(x))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
