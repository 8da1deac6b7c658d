package session

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nous-dev/nous/engine"
)

// moves find a follow-up's move of the earlier period: "the week before",
// "the month after", "before that", "the year before that".
var (
	moveByUnit = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:the\s+)?(day|week|month|quarter|year)\s+(before|after|earlier|later)\b`)
	})
	moveByLen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(before|after)\s+that\b`) })
)

// movePeriod moves the earlier period [since, until) as query asks, and
// reports whether it asks at all. The constraint's Value is the moved
// period as a date expression ("2026-11-09..2026-11-15"); it is empty, with
// the Reason, when there was no closed period to move.
func movePeriod(query string, since, until time.Time) (engine.Constraint, bool) {
	c := engine.Constraint{Key: datesKey}
	var back bool
	var by shift
	if m := moveByUnit().FindStringSubmatch(query); m != nil {
		c.Phrase = strings.ToLower(m[0])
		back = isBack(m[2])
		by = unitShifts[strings.ToLower(m[1])]
	} else if m := moveByLen().FindStringSubmatch(query); m != nil {
		c.Phrase = strings.ToLower(m[0])
		back = isBack(m[1])
		by = length(since, until)
	} else {
		return c, false
	}
	if since.IsZero() || until.IsZero() {
		c.Reason = "the earlier question has no closed period to move"
		return c, true
	}
	from, to := until, by.add(until, 1)
	if back {
		from, to = by.add(since, -1), since
	}
	c.Value = periodValue(from, to)
	c.Reason = "from " + span(since, until)
	return c, true
}

// shift is a calendar move: months (a year is 12) then days.
type shift struct{ months, days int }

// unitShifts are the moves "the day/week/… before" names.
var unitShifts = map[string]shift{"day": {days: 1}, "week": {days: 7}, "month": {months: 1}, "quarter": {months: 3}, "year": {months: 12}}

// length is the period [since, until) as a calendar move: whole months
// when it runs from a month's first day to another's (2025 is 12 months,
// so "before that" is 2024, leap day included), else whole days counted
// on the calendar (a DST change does not make a day 23 hours).
func length(since, until time.Time) shift {
	if since.IsZero() || until.IsZero() {
		return shift{}
	}
	if since.Day() == 1 && until.Day() == 1 && midnight(since) && midnight(until) {
		return shift{months: (until.Year()-since.Year())*12 + int(until.Month()) - int(since.Month())}
	}
	return shift{days: int(civil(until).Sub(civil(since)).Hours() / 24)}
}

// add moves t by sign times the shift; a month move keeps the day of the
// month, clamped to the month's last (March 31 back one month is February 28
// or 29, not March 3).
func (s shift) add(t time.Time, sign int) time.Time {
	if s.months != 0 {
		first := time.Date(t.Year(), t.Month()+time.Month(sign*s.months), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
		last := time.Date(first.Year(), first.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
		t = first.AddDate(0, 0, min(t.Day(), last)-1)
	}
	return t.AddDate(0, 0, sign*s.days)
}

// civil is t's calendar date at UTC midnight, for counting days.
func civil(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func midnight(t time.Time) bool {
	return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
}

func isBack(word string) bool {
	w := strings.ToLower(word)
	return w == "before" || w == "earlier"
}

// periodValue writes [since, until) as a date expression the dates entity
// takes: "2026-11-09..2026-11-15" (the end day included), "since …",
// "before …"; "" for no period.
func periodValue(since, until time.Time) string {
	switch {
	case !since.IsZero() && !until.IsZero():
		return day(since) + ".." + day(until.AddDate(0, 0, -1))
	case !since.IsZero():
		return "since " + day(since)
	case !until.IsZero():
		return "before " + day(until)
	}
	return ""
}

// span writes a closed period for a reader: "2026-11-16 – 2026-11-22".
func span(since, until time.Time) string {
	return day(since) + " – " + day(until.AddDate(0, 0, -1))
}

func day(t time.Time) string { return t.Format(time.DateOnly) }
