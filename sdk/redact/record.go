package redact

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// Record returns a copy of rec with every secret masked in its text and
// fields. rec itself, its Fields map included, is left unchanged.
func (r *Redactor) Record(rec sdk.Record) sdk.Record {
	if !r.active() {
		return rec
	}
	rec.ID, rec.Title, rec.Body = r.String(rec.ID), r.String(rec.Title), r.String(rec.Body)
	rec.URL, rec.Author = r.String(rec.URL), r.String(rec.Author)
	rec.Kind, rec.Source = r.String(rec.Kind), r.String(rec.Source)
	rec.Fields = Value(r, rec.Fields)
	return rec
}

// OneLineFields returns rec with its one-line fields (ID, Title, Author,
// Kind, Source, URL) kept on one line by OneLine, and the URL's characters
// that would end a Markdown or HTML link percent-encoded, so a record from
// a remote service cannot start a line, or a link, of a report. Mask
// secrets first (Record): a secret holding a newline is then still whole.
func OneLineFields(rec sdk.Record) sdk.Record {
	rec.ID, rec.Title, rec.Author = OneLine(rec.ID), OneLine(rec.Title), OneLine(rec.Author)
	rec.URL, rec.Kind, rec.Source = urlEscaper.Replace(OneLine(rec.URL)), OneLine(rec.Kind), OneLine(rec.Source)
	return rec
}

// urlEscaper percent-encodes what would end a link in Markdown or HTML
// (spaces, brackets, parentheses, quotes, angle brackets), so a record's
// URL "https://x/) [click](https://evil)" stays one link target.
var urlEscaper = strings.NewReplacer(" ", "%20", `"`, "%22", "<", "%3C", ">", "%3E", "`", "%60", "[", "%5B", "]", "%5D",
	"(", "%28", ")", "%29", "{", "%7B", "}", "%7D", "|", "%7C", `\`, "%5C", "^", "%5E")

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
