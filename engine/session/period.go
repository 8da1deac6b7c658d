package session

import (
	"regexp"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine"
)

// moves find a follow-up's move of the earlier period: "the week before",
// "the month after", "before that", "the year before that".
var (
	moveByUnit = regexp.MustCompile(`(?i)\b(?:the\s+)?(day|week|month|quarter|year)\s+(before|after|earlier|later)\b`)
	moveByLen  = regexp.MustCompile(`(?i)\b(before|after)\s+that\b`)
)

// movePeriod moves the earlier period [since, until) as query asks, and
// reports whether it asks at all. The constraint's Value is the moved
// period as a date expression ("2026-11-09..2026-11-15"); it is empty, with
// the Reason, when there was no closed period to move.
func movePeriod(query string, since, until time.Time) (engine.Constraint, bool) {
	c := engine.Constraint{Key: datesKey}
	var back bool
	var step func(t time.Time, sign int) time.Time
	if m := moveByUnit.FindStringSubmatch(query); m != nil {
		c.Phrase = strings.ToLower(m[0])
		back = isBack(m[2])
		n := map[string][3]int{"day": {0, 0, 1}, "week": {0, 0, 7}, "month": {0, 1, 0}, "quarter": {0, 3, 0}, "year": {1, 0, 0}}[strings.ToLower(m[1])]
		step = func(t time.Time, sign int) time.Time { return t.AddDate(sign*n[0], sign*n[1], sign*n[2]) }
	} else if m := moveByLen.FindStringSubmatch(query); m != nil {
		c.Phrase = strings.ToLower(m[0])
		back = isBack(m[1])
		days := int(until.Sub(since).Round(24*time.Hour) / (24 * time.Hour))
		step = func(t time.Time, sign int) time.Time { return t.AddDate(0, 0, sign*days) }
	} else {
		return c, false
	}
	if since.IsZero() || until.IsZero() {
		c.Reason = "the earlier question has no closed period to move"
		return c, true
	}
	from, to := until, step(until, 1)
	if back {
		from, to = step(since, -1), since
	}
	c.Value = periodValue(from, to)
	c.Reason = "from " + span(since, until)
	return c, true
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
