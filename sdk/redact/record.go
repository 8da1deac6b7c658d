package redact

import (
	"fmt"

	"github.com/nous-dev/nous/sdk"
)

// Record returns a copy of rec safe to show: every secret masked in its
// text and string fields, and its one-line fields (ID, Title, Author, URL,
// Kind, Source) kept on one line by OneLine, whatever the redactor (a nil
// one too). rec itself, its Fields map included, is left unchanged.
func (r *Redactor) Record(rec sdk.Record) sdk.Record {
	rec.ID, rec.Title, rec.Author = OneLine(rec.ID), OneLine(rec.Title), OneLine(rec.Author)
	rec.URL, rec.Kind, rec.Source = OneLine(rec.URL), OneLine(rec.Kind), OneLine(rec.Source)
	if !r.active() {
		return rec
	}
	rec.ID, rec.Title, rec.Body = r.String(rec.ID), r.String(rec.Title), r.String(rec.Body)
	rec.URL, rec.Author = r.String(rec.URL), r.String(rec.Author)
	rec.Fields = Value(r, rec.Fields)
	return rec
}

// Args returns a copy of log key/value arguments (hclog, slog) with every
// secret masked: in strings, in errors and Stringers (which become their
// masked text when they hold one), and inside the maps and lists of
// decoded JSON (a plugin's log fields as the host re-emits them).
func (r *Redactor) Args(args []any) []any {
	if !r.active() {
		return args
	}
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = r.value(a)
	}
	return out
}

// value masks one log value for Args.
func (r *Redactor) value(a any) any {
	switch v := a.(type) {
	case string:
		return r.String(v)
	case error:
		return r.String(v.Error())
	case fmt.Stringer:
		// Kept as is unless it holds a secret: a logger may render a
		// time.Time or time.Duration otherwise than by its String.
		text := v.String()
		if masked := r.String(text); masked != text {
			return masked
		}
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = r.value(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = r.value(x)
		}
		return out
	}
	return a
}
