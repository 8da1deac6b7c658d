// Package timerange resolves date expressions ("today", "last week", "Q1
// 2024", "since 2024-01-01", "between March 2024 and May 2024", …) to
// half-open time ranges, and finds them in the free text of a question. The
// engine and `nous fetch` resolve them; sources never parse dates.
package timerange

import (
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Accepted lists the accepted date expressions, for error messages and docs.
const Accepted = "today, yesterday, this/last week|month|quarter|year, " +
	"last/past N days|weeks|months|quarters|years, N days|weeks|… ago, " +
	"YYYY-MM-DD, YYYY-MM, YYYY, MONTH [YYYY], MONTH DAY [YYYY], DAY MONTH [YYYY], " +
	"Qn [YYYY], H1|H2 YYYY, first|second half [of YYYY], first…fourth quarter [of YYYY], WEEKDAY, " +
	"since|after|before|until X, in|during|from X, between X and Y, from X to Y, X..Y " +
	"(X and Y with a year: YYYY-MM-DD, YYYY-MM, YYYY, MONTH YYYY, Qn YYYY, H1 YYYY)"

// Range is the half-open interval [Since, Until). A zero bound is open:
// "since 2024-01-01" has a zero Until, "before 2024-01-01" a zero Since.
type Range struct {
	Since time.Time
	Until time.Time
}

// Contains reports whether t lies in [Since, Until); a zero bound does not
// limit.
func (r Range) Contains(t time.Time) bool {
	return (r.Since.IsZero() || !t.Before(r.Since)) && (r.Until.IsZero() || t.Before(r.Until))
}

// open reports whether a bound is missing.
func (r Range) open() bool { return r.Since.IsZero() || r.Until.IsZero() }

// Resolve resolves every value and combines them the way a person means
// them: closed ranges ("last week", "2024-01-15") join into one, from the
// earliest start to the latest end; open bounds ("since X", "after X",
// "before X", "until X") then narrow it, the latest start and the earliest
// end winning. So "since 2024-01-01" with "until 2024-03-31" is
// [2024-01-01, 2024-04-01), and "2024" with "since March 2024" is
// [2024-03-01, 2025-01-01). Values that leave no time at all are an error.
// No values give the zero Range (unbounded).
func Resolve(values []string, now time.Time) (Range, error) {
	var union, bounds Range
	closed := false
	for _, v := range values {
		r, err := Parse(v, now)
		if err != nil {
			return Range{}, err
		}
		if r.open() {
			if !r.Since.IsZero() && r.Since.After(bounds.Since) {
				bounds.Since = r.Since
			}
			if !r.Until.IsZero() && (bounds.Until.IsZero() || r.Until.Before(bounds.Until)) {
				bounds.Until = r.Until
			}
			continue
		}
		if !closed || r.Since.Before(union.Since) {
			union.Since = r.Since
		}
		if !closed || r.Until.After(union.Until) {
			union.Until = r.Until
		}
		closed = true
	}
	if !bounds.Since.IsZero() && (union.Since.IsZero() || bounds.Since.After(union.Since)) {
		union.Since = bounds.Since
	}
	if !bounds.Until.IsZero() && (union.Until.IsZero() || bounds.Until.Before(union.Until)) {
		union.Until = bounds.Until
	}
	if !union.open() && !union.Since.Before(union.Until) {
		return Range{}, sdk.Errorf(sdk.KindBadRequest, "dates %q: together they leave no time (from %s to %s, both included)",
			values, union.Since.Format(time.DateOnly), addDays(union.Until, -1).Format(time.DateOnly))
	}
	return union, nil
}

// Parse resolves one date expression relative to now, in now's location.
// It is case-insensitive and ignores surrounding and repeated spaces.
// Weeks are ISO weeks starting on Monday; an end day is inclusive. "since
// X" starts on X's first day and "after X" on the day after X; "until X"
// includes X and "before X" ends where X starts. A weekday ("since
// Monday") is the most recent such day before today: on a Monday, "since
// Monday" means a week ago, since a person would have said "today". A
// month without a year ("in March") is the most recent March that has
// begun; "Q1" alone is this year's.
func Parse(value string, now time.Time) (Range, error) {
	var buf [16]token
	toks := lex(value, buf[:0])
	p := parser{toks: toks}
	ph, next, ok := p.phrase(0)
	if ok && next == len(toks) {
		r, err := ph.resolve(now)
		if err != nil {
			return Range{}, sdk.Errorf(sdk.KindBadRequest, "date %q: %w", value, err)
		}
		return r, nil
	}
	return Range{}, parseError(value, toks, ok, next)
}

// parseError says what is wrong with a value the grammar did not read
// whole.
func parseError(value string, toks []token, ok bool, next int) error {
	for k, t := range toks {
		if t.kind != tDots {
			continue
		}
		if err := rangeSide(value, "start", toks[:k], value[:t.start]); err != nil {
			return err
		}
		if err := rangeSide(value, "end", toks[k+1:], value[t.end:]); err != nil {
			return err
		}
		break
	}
	if ok {
		return sdk.Errorf(sdk.KindBadRequest, "date %q: unexpected %q after %q; accepted: %s",
			value, strings.TrimSpace(value[toks[next].start:]), strings.TrimSpace(value[:toks[next-1].end]), Accepted)
	}
	return sdk.Errorf(sdk.KindBadRequest, "date %q: not a date expression; accepted: %s", value, Accepted)
}

// rangeSide checks one side of "X..Y": a period with its year.
func rangeSide(value, side string, toks []token, text string) error {
	p := parser{toks: toks}
	if a, j, ok := p.period(0); ok && j == len(toks) && a.static() {
		return nil
	}
	return sdk.Errorf(sdk.KindBadRequest, "date %q: range %s %q is not a YYYY-MM-DD date, nor a month, quarter or year with its year; accepted: %s",
		value, side, strings.TrimSpace(text), Accepted)
}
