// Package redact keeps a source's secret out of everything it returns:
// error messages, log lines and records.
package redact

import (
	"context"
	"errors"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// Mask replaces a secret wherever it appears.
const Mask = "[REDACTED]"

// Secret scrubs one secret value; the zero Secret scrubs nothing.
type Secret struct{ value string }

// New returns a Secret for value. Values shorter than 4 bytes are not
// scrubbed: they would mangle ordinary text and are no real secret.
func New(value string) Secret {
	if len(value) < 4 {
		return Secret{}
	}
	return Secret{value: value}
}

// String returns s with the secret masked.
func (r Secret) String(s string) string {
	if r.value == "" || !strings.Contains(s, r.value) {
		return s
	}
	return strings.ReplaceAll(s, r.value, Mask)
}

// Error rewrites err so its text cannot carry the secret. The sdk kind
// survives; the cause chain, which may hold a raw response body, does not.
// Context cancellation passes through unchanged so errors.Is keeps working.
func (r Secret) Error(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), r.value) {
		return err
	}
	return &sdk.Error{Kind: sdk.KindOf(err), Message: r.String(err.Error())}
}

// Record masks the secret in a record's text and string fields.
func (r Secret) Record(rec sdk.Record) sdk.Record {
	if r.value == "" {
		return rec
	}
	rec.ID, rec.Title, rec.Body = r.String(rec.ID), r.String(rec.Title), r.String(rec.Body)
	rec.URL, rec.Author = r.String(rec.URL), r.String(rec.Author)
	for k, v := range rec.Fields {
		switch v := v.(type) {
		case string:
			rec.Fields[k] = r.String(v)
		case []string:
			for i := range v {
				v[i] = r.String(v[i])
			}
		}
	}
	return rec
}
