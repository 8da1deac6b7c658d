package timerange

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseForms lists every accepted form with the range it resolves to on
// a fixed clock. Bounds are days in the clock's location; "" is open.
func TestParseForms(t *testing.T) {
	wed := time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC)      // a Wednesday
	mon := time.Date(2024, 3, 11, 9, 0, 0, 0, time.UTC)       // a Monday
	monthEnd := time.Date(2024, 3, 31, 9, 0, 0, 0, time.UTC)  // a Sunday, after February 29
	yearEnd := time.Date(2024, 12, 31, 18, 0, 0, 0, time.UTC) // a Tuesday, the last day of Q4
	newYear := time.Date(2025, 1, 2, 8, 0, 0, 0, time.UTC)    // a Thursday, in an ISO week begun in 2024
	tests := []struct {
		value        string
		now          time.Time
		since, until string
	}{
		// Calendar days, weeks, months, quarters, years.
		{"today", wed, "2024-03-13", "2024-03-14"},
		{"yesterday", wed, "2024-03-12", "2024-03-13"},
		{"yesterday", mon, "2024-03-10", "2024-03-11"},
		{"this week", wed, "2024-03-11", "2024-03-18"},
		{"this week", mon, "2024-03-11", "2024-03-18"},
		{"this week", newYear, "2024-12-30", "2025-01-06"},
		{"last week", wed, "2024-03-04", "2024-03-11"},
		{"previous week", mon, "2024-03-04", "2024-03-11"},
		{"this month", wed, "2024-03-01", "2024-04-01"},
		{"last month", wed, "2024-02-01", "2024-03-01"},
		{"last month", newYear, "2024-12-01", "2025-01-01"},
		{"this quarter", wed, "2024-01-01", "2024-04-01"},
		{"current quarter", yearEnd, "2024-10-01", "2025-01-01"},
		{"last quarter", wed, "2023-10-01", "2024-01-01"},
		{"last quarter", yearEnd, "2024-07-01", "2024-10-01"},
		{"last quarter", newYear, "2024-10-01", "2025-01-01"},
		{"this year", wed, "2024-01-01", "2025-01-01"},
		{"last year", wed, "2023-01-01", "2024-01-01"},
		{"last year", yearEnd, "2023-01-01", "2024-01-01"},
		{"last year", newYear, "2024-01-01", "2025-01-01"},

		// Rolling spans end today, today included.
		{"last 7 days", wed, "2024-03-07", "2024-03-14"},
		{"last 1 day", wed, "2024-03-13", "2024-03-14"},
		{"past 30 days", wed, "2024-02-13", "2024-03-14"},
		{"the past 2 weeks", wed, "2024-02-29", "2024-03-14"},
		{"the last two weeks", mon, "2024-02-27", "2024-03-12"},
		{"last 3 months", wed, "2023-12-14", "2024-03-14"},
		{"past month", wed, "2024-02-14", "2024-03-14"},
		{"past month", monthEnd, "2024-03-01", "2024-04-01"},
		{"past month", yearEnd, "2024-12-01", "2025-01-01"},
		{"the last month", wed, "2024-02-14", "2024-03-14"},
		{"past week", wed, "2024-03-07", "2024-03-14"},
		{"past year", wed, "2023-03-14", "2024-03-14"},
		{"last 2 quarters", wed, "2023-09-14", "2024-03-14"},
		{"last 2 years", monthEnd, "2022-04-01", "2024-04-01"},
		{"3 days ago", wed, "2024-03-10", "2024-03-11"},
		{"2 weeks ago", wed, "2024-02-28", "2024-02-29"},
		{"one month ago", monthEnd, "2024-02-29", "2024-03-01"},

		// Open bounds: since/after/before/until.
		{"since 2024-01-01", wed, "2024-01-01", ""},
		{"after 2024-01-01", wed, "2024-01-02", ""},
		{"before 2024-01-01", wed, "", "2024-01-01"},
		{"until 2024-01-31", wed, "", "2024-02-01"},
		{"through 2024-01-31", wed, "", "2024-02-01"},
		{"till March 2024", wed, "", "2024-04-01"},
		{"since 2024", wed, "2024-01-01", ""},
		{"after 2023", wed, "2024-01-01", ""},
		{"before Q2 2024", wed, "", "2024-04-01"},
		{"since last week", wed, "2024-03-04", ""},
		{"since yesterday", mon, "2024-03-10", ""},
		{"since 2 weeks ago", wed, "2024-02-28", ""},
		{"since the start of the year", wed, "2024-01-01", ""},
		{"until the end of last month", wed, "", "2024-03-01"},

		// Weekdays: the most recent such day before today.
		{"since Monday", wed, "2024-03-11", ""},
		{"since Monday", mon, "2024-03-04", ""},
		{"since Sunday", wed, "2024-03-10", ""},
		{"since wednesday", wed, "2024-03-06", ""},
		{"since Monday", newYear, "2024-12-30", ""},
		{"on Friday", wed, "2024-03-08", "2024-03-09"},
		{"last Friday", mon, "2024-03-08", "2024-03-09"},
		{"Tuesday", wed, "2024-03-12", "2024-03-13"},

		// Closed spans between two dates with a year; the end is inclusive.
		{"between 2024-01-01 and 2024-02-15", wed, "2024-01-01", "2024-02-16"},
		{"between January 2024 and March 2024", wed, "2024-01-01", "2024-04-01"},
		{"between Q1 2023 and Q2 2023", wed, "2023-01-01", "2023-07-01"},
		{"from 2024-01-01 to 2024-01-31", wed, "2024-01-01", "2024-02-01"},
		{"from 2023 until 2024", wed, "2023-01-01", "2025-01-01"},
		{"2024-01-01 to 2024-01-31", wed, "2024-01-01", "2024-02-01"},
		{"2024-01-01..2024-01-31", wed, "2024-01-01", "2024-02-01"},
		{"2024-01..2024-03", wed, "2024-01-01", "2024-04-01"},
		{"2023..2024", wed, "2023-01-01", "2025-01-01"},

		// Years, months, days.
		{"2024-02-29", wed, "2024-02-29", "2024-03-01"},
		{"2024-01", wed, "2024-01-01", "2024-02-01"},
		{"2023", wed, "2023-01-01", "2024-01-01"},
		{"in 2024", wed, "2024-01-01", "2025-01-01"},
		{"during 2023", wed, "2023-01-01", "2024-01-01"},
		{"from 2023", wed, "2023-01-01", "2024-01-01"},
		{"in 2024-05", wed, "2024-05-01", "2024-06-01"},
		{"in January 2024", wed, "2024-01-01", "2024-02-01"},
		{"January 2024", wed, "2024-01-01", "2024-02-01"},
		{"Sept 2023", wed, "2023-09-01", "2023-10-01"},
		{"in March", wed, "2024-03-01", "2024-04-01"},
		{"in April", wed, "2023-04-01", "2023-05-01"},
		{"in December", newYear, "2024-12-01", "2025-01-01"},
		{"in January", newYear, "2025-01-01", "2025-02-01"},
		{"March 5", wed, "2024-03-05", "2024-03-06"},
		{"March 20", wed, "2023-03-20", "2023-03-21"},
		{"on March 5th", wed, "2024-03-05", "2024-03-06"},
		{"March 5, 2023", wed, "2023-03-05", "2023-03-06"},
		{"5 March 2023", wed, "2023-03-05", "2023-03-06"},
		{"Feb 29 2024", wed, "2024-02-29", "2024-03-01"},

		// Quarters and halves.
		{"Q1 2024", wed, "2024-01-01", "2024-04-01"},
		{"q4 2023", wed, "2023-10-01", "2024-01-01"},
		{"Q1", wed, "2024-01-01", "2024-04-01"},
		{"Q4", newYear, "2025-10-01", "2026-01-01"},
		{"2024 Q3", wed, "2024-07-01", "2024-10-01"},
		{"Q3-2024", wed, "2024-07-01", "2024-10-01"},
		{"2024-Q3", wed, "2024-07-01", "2024-10-01"},
		{"Q3 of last year", wed, "2023-07-01", "2023-10-01"},
		{"Q4 last year", newYear, "2024-10-01", "2025-01-01"},
		{"the second quarter of 2023", wed, "2023-04-01", "2023-07-01"},
		{"first quarter", wed, "2024-01-01", "2024-04-01"},
		{"4th quarter of this year", wed, "2024-10-01", "2025-01-01"},
		{"first half of 2025", wed, "2025-01-01", "2025-07-01"},
		{"the second half of 2024", wed, "2024-07-01", "2025-01-01"},
		{"the first half of last year", wed, "2023-01-01", "2023-07-01"},
		{"H1 2025", wed, "2025-01-01", "2025-07-01"},
		{"h2 2024", wed, "2024-07-01", "2025-01-01"},
		{"2024 H2", wed, "2024-07-01", "2025-01-01"},

		// First and last days.
		{"the start of 2024", wed, "2024-01-01", "2024-01-02"},
		{"the end of Q1 2024", wed, "2024-03-31", "2024-04-01"},
		{"beginning of last month", wed, "2024-02-01", "2024-02-02"},

		// Spelling: case, spaces, punctuation around words.
		{"  In   THE Past 2 Weeks ", wed, "2024-02-29", "2024-03-14"},
		{"last week.", wed, "2024-03-04", "2024-03-11"},
		{" 2024-01-01 .. 2024-01-31 ", wed, "2024-01-01", "2024-02-01"},
	}
	for _, tt := range tests {
		t.Run(tt.value+"@"+tt.now.Format("Mon 2006-01-02"), func(t *testing.T) {
			r, err := Parse(tt.value, tt.now)
			require.NoError(t, err)
			assert.Equal(t, tt.since, dayOf(r.Since), "since")
			assert.Equal(t, tt.until, dayOf(r.Until), "until")
		})
	}
}

// dayOf is a bound as the table writes it: its date, or "" when open.
func dayOf(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if t.Hour() != 0 || t.Minute() != 0 {
		return t.Format(time.DateTime) // not a midnight: show it whole
	}
	return t.Format(time.DateOnly)
}
