// Package timerange resolves the date expressions of the `dates` filter
// ("today", "last week", "2024-01-01..2024-01-31", …) to half-open time
// ranges. The engine and `nous fetch` resolve them; sources never parse dates.
package timerange

import (
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Accepted lists the accepted date expressions, for error messages and docs.
const Accepted = "today, yesterday, this week, last week, this month, last month, last N days, YYYY-MM-DD, YYYY-MM-DD..YYYY-MM-DD"

// maxDays bounds "last N days" so that the arithmetic stays far from overflow.
const maxDays = 100 * 366

// Range is the half-open interval [Since, Until).
type Range struct {
	Since time.Time
	Until time.Time
}

// Contains reports whether t lies in [Since, Until).
func (r Range) Contains(t time.Time) bool {
	return !t.Before(r.Since) && t.Before(r.Until)
}

// Resolve resolves every value and returns their union: the earliest Since
// and the latest Until. Calendar days are those of now's location. No
// values give the zero Range (unbounded).
func Resolve(values []string, now time.Time) (Range, error) {
	var union Range
	for i, v := range values {
		r, err := Parse(v, now)
		if err != nil {
			return Range{}, err
		}
		if i == 0 || r.Since.Before(union.Since) {
			union.Since = r.Since
		}
		if i == 0 || r.Until.After(union.Until) {
			union.Until = r.Until
		}
	}
	return union, nil
}

// Parse resolves one date expression relative to now, in now's location.
// It is case-insensitive and ignores surrounding and repeated spaces.
// Weeks are ISO weeks starting on Monday; an end day is inclusive.
func Parse(value string, now time.Time) (Range, error) {
	expr := strings.ToLower(strings.Join(strings.Fields(value), " "))
	today := midnight(now, 0)
	switch expr {
	case "today":
		return Range{today, midnight(now, 1)}, nil
	case "yesterday":
		return Range{midnight(now, -1), today}, nil
	case "this week":
		monday := midnight(now, -daysSinceMonday(now))
		return Range{monday, addDays(monday, 7)}, nil
	case "last week":
		monday := midnight(now, -daysSinceMonday(now))
		return Range{addDays(monday, -7), monday}, nil
	case "this month":
		first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
		return Range{first, first.AddDate(0, 1, 0)}, nil
	case "last month":
		first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
		return Range{first.AddDate(0, -1, 0), first}, nil
	}
	if n, ok := lastNDays(expr); ok {
		if n < 1 || n > maxDays {
			return Range{}, sdk.Errorf(sdk.KindBadRequest, "date %q: N must be between 1 and %d", value, maxDays)
		}
		return Range{midnight(now, 1-n), midnight(now, 1)}, nil
	}
	if from, to, ok := strings.Cut(expr, ".."); ok {
		return parseSpan(value, strings.TrimSpace(from), strings.TrimSpace(to), now.Location())
	}
	if d, err := time.ParseInLocation(time.DateOnly, expr, now.Location()); err == nil {
		return Range{d, addDays(d, 1)}, nil
	}
	return Range{}, sdk.Errorf(sdk.KindBadRequest, "date %q: not a date expression; accepted: %s", value, Accepted)
}

// parseSpan resolves "FROM..TO", both ISO dates, TO inclusive.
func parseSpan(value, from, to string, loc *time.Location) (Range, error) {
	since, err := time.ParseInLocation(time.DateOnly, from, loc)
	if err != nil {
		return Range{}, sdk.Errorf(sdk.KindBadRequest, "date %q: range start %q is not a YYYY-MM-DD date; accepted: %s", value, from, Accepted)
	}
	last, err := time.ParseInLocation(time.DateOnly, to, loc)
	if err != nil {
		return Range{}, sdk.Errorf(sdk.KindBadRequest, "date %q: range end %q is not a YYYY-MM-DD date; accepted: %s", value, to, Accepted)
	}
	if last.Before(since) {
		return Range{}, sdk.Errorf(sdk.KindBadRequest, "date %q: range ends before it starts", value)
	}
	return Range{since, addDays(last, 1)}, nil
}

// lastNDays recognises "last N days" (and "last 1 day") and returns N.
func lastNDays(expr string) (int, bool) {
	rest, ok := strings.CutPrefix(expr, "last ")
	if !ok {
		return 0, false
	}
	num, unit, ok := strings.Cut(rest, " ")
	if !ok || (unit != "days" && unit != "day") {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		// Digits too many for an int are still a "last N days" with a bad N.
		return maxDays + 1, isDigits(num)
	}
	return n, true
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// midnight returns the start of the calendar day offset days from t's, in
// t's location. time.Date normalises the day, so months and years roll over
// and DST days get their real length. Where a DST jump skips midnight, the
// day starts at the jump, the first instant that has the day's date.
func midnight(t time.Time, offset int) time.Time {
	noon := time.Date(t.Year(), t.Month(), t.Day()+offset, 12, 0, 0, 0, t.Location())
	start := time.Date(noon.Year(), noon.Month(), noon.Day(), 0, 0, 0, 0, t.Location())
	if start.Day() != noon.Day() {
		start, _ = noon.ZoneBounds()
	}
	return start
}

// addDays moves a midnight by whole calendar days.
func addDays(day time.Time, n int) time.Time { return midnight(day, n) }

// daysSinceMonday is 0 on Monday … 6 on Sunday.
func daysSinceMonday(t time.Time) int { return (int(t.Weekday()) + 6) % 7 }
