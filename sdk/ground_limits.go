package sdk

import (
	"fmt"
	"unicode/utf8"
)

// Bounds of a Ground call. A question has a handful of terms; the bounds
// keep a runaway caller or plugin from costing more than a fetch.
const (
	MaxGroundTerms = 256 // terms in one GroundRequest
	MaxTermBytes   = 256 // bytes in a term's kind or value
	MaxCanonical   = 64  // canonical forms of one GroundedTerm
)

// checkGroundRequest reports the first problem of req as a KindBadRequest
// error: too many terms, an empty or oversized kind or value, invalid UTF-8.
func checkGroundRequest(req GroundRequest) error {
	if len(req.Terms) > MaxGroundTerms {
		return Errorf(KindBadRequest, "ground request: %d terms, at most %d are allowed", len(req.Terms), MaxGroundTerms)
	}
	for i, t := range req.Terms {
		if err := checkTermField("kind", t.Kind); err != nil {
			return Errorf(KindBadRequest, "ground request: terms[%d]: %w", i, err)
		}
		if err := checkTermField("value", t.Value); err != nil {
			return Errorf(KindBadRequest, "ground request: terms[%d] (%s): %w", i, t.Kind, err)
		}
	}
	return nil
}

func checkTermField(name, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty %s", name)
	case len(s) > MaxTermBytes:
		return fmt.Errorf("%s is %d bytes, at most %d are allowed", name, len(s), MaxTermBytes)
	case !utf8.ValidString(s):
		return fmt.Errorf("%s %q is not valid UTF-8", name, s)
	}
	return nil
}

// checkGroundAnswer reports how a plugin's answer fails to match req: one
// answer per term, in request order, with the term's kind and value, and
// at most MaxCanonical forms each. The host runs it on every answer, so a
// plugin's mistake is an error rather than a silently misread term.
func checkGroundAnswer(req GroundRequest, resp GroundResponse) error {
	if len(resp.Terms) != len(req.Terms) {
		return Errorf(KindUnknown, "ground: the plugin answered %d terms for the %d asked; it must answer each term once, in order", len(resp.Terms), len(req.Terms))
	}
	for i, got := range resp.Terms {
		want := req.Terms[i]
		if got.Kind != want.Kind || got.Value != want.Value {
			return Errorf(KindUnknown, "ground: the plugin's answer terms[%d] is for %s %q, but the request's terms[%d] is %s %q; answers must keep the request's order, kind and value", i, got.Kind, got.Value, i, want.Kind, want.Value)
		}
		if len(got.Canonical) > MaxCanonical {
			return Errorf(KindUnknown, "ground: the plugin's answer terms[%d] (%s %q) has %d canonical forms, at most %d are allowed", i, got.Kind, got.Value, len(got.Canonical), MaxCanonical)
		}
	}
	return nil
}

// unknownTerms answers every term of req as not known, with note.
func unknownTerms(req GroundRequest, note string) GroundResponse {
	terms := make([]GroundedTerm, len(req.Terms))
	for i, t := range req.Terms {
		terms[i] = GroundedTerm{Kind: t.Kind, Value: t.Value, Note: note}
	}
	return GroundResponse{Terms: terms}
}
