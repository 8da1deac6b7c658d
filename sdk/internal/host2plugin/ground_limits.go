package host2plugin

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/nous-dev/nous/sdk"
)

// checkGroundRequest reports the first problem of req as an sdk.KindBadRequest
// error: too many terms, an empty or oversized kind or value, invalid UTF-8.
func checkGroundRequest(req sdk.GroundRequest) error {
	if len(req.Terms) > sdk.MaxGroundTerms {
		return sdk.Errorf(sdk.KindBadRequest, "ground request: %d terms, at most %d are allowed", len(req.Terms), sdk.MaxGroundTerms)
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && req.Until.Before(req.Since) {
		return sdk.Errorf(sdk.KindBadRequest, "ground request: until %s is before since %s", req.Until.Format(time.RFC3339), req.Since.Format(time.RFC3339))
	}
	for i, t := range req.Terms {
		if err := checkTermField("kind", t.Kind); err != nil {
			return sdk.Errorf(sdk.KindBadRequest, "ground request: terms[%d]: %w", i, err)
		}
		if err := checkTermField("value", t.Value); err != nil {
			return sdk.Errorf(sdk.KindBadRequest, "ground request: terms[%d] (%s): %w", i, t.Kind, err)
		}
	}
	return nil
}

func checkTermField(name, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty %s", name)
	case len(s) > sdk.MaxTermBytes:
		return fmt.Errorf("%s is %d bytes, at most %d are allowed", name, len(s), sdk.MaxTermBytes)
	case !utf8.ValidString(s):
		return fmt.Errorf("%s %q is not valid UTF-8", name, s)
	}
	return nil
}

// checkGroundAnswer reports how a plugin's answer fails to match req: one
// answer per term, in request order, with the term's kind and value, and
// at most sdk.MaxCanonical forms each. The host runs it on every answer, so a
// plugin's mistake is an error rather than a silently misread term.
func checkGroundAnswer(req sdk.GroundRequest, resp sdk.GroundResponse) error {
	if len(resp.Terms) != len(req.Terms) {
		return sdk.Errorf(sdk.KindUnknown, "ground: the plugin answered %d terms for the %d asked; it must answer each term once, in order", len(resp.Terms), len(req.Terms))
	}
	for i, got := range resp.Terms {
		want := req.Terms[i]
		if got.Kind != want.Kind || got.Value != want.Value {
			return sdk.Errorf(sdk.KindUnknown, "ground: the plugin's answer terms[%d] is for %s %q, but the request's terms[%d] is %s %q; answers must keep the request's order, kind and value", i, got.Kind, got.Value, i, want.Kind, want.Value)
		}
		if len(got.Canonical) > sdk.MaxCanonical {
			return sdk.Errorf(sdk.KindUnknown, "ground: the plugin's answer terms[%d] (%s %q) has %d canonical forms, at most %d are allowed", i, got.Kind, got.Value, len(got.Canonical), sdk.MaxCanonical)
		}
	}
	return nil
}

// unknownTerms answers every term of req as not known, with note.
func unknownTerms(req sdk.GroundRequest, note string) sdk.GroundResponse {
	terms := make([]sdk.GroundedTerm, len(req.Terms))
	for i, t := range req.Terms {
		terms[i] = sdk.GroundedTerm{Kind: t.Kind, Value: t.Value, Note: note}
	}
	return sdk.GroundResponse{Terms: terms}
}
