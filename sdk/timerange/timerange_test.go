package timerange

import (
	"errors"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustLoad(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	require.NoError(t, err)
	return loc
}

func TestParse(t *testing.T) {
	utc := time.UTC
	berlin := mustLoad(t, "Europe/Berlin")
	newYork := mustLoad(t, "America/New_York")
	taipei := mustLoad(t, "Asia/Taipei")
	saoPaulo := mustLoad(t, "America/Sao_Paulo")
	at := func(loc *time.Location, y int, m time.Month, d, h int) time.Time {
		return time.Date(y, m, d, h, 0, 0, 0, loc)
	}
	day := func(loc *time.Location, y int, m time.Month, d int) time.Time { return at(loc, y, m, d, 0) }

	tests := []struct {
		name         string
		value        string
		now          time.Time
		since, until time.Time
		hours        float64 // expected length, checks DST handling; 0 skips
	}{
		{"today", "today", at(utc, 2024, 3, 13, 15), day(utc, 2024, 3, 13), day(utc, 2024, 3, 14), 24},
		{"today just after midnight", "today", at(utc, 2024, 3, 13, 0), day(utc, 2024, 3, 13), day(utc, 2024, 3, 14), 24},
		{"case and spaces", "  ToDaY ", at(utc, 2024, 3, 13, 15), day(utc, 2024, 3, 13), day(utc, 2024, 3, 14), 24},
		{"yesterday over a month boundary", "yesterday", at(utc, 2024, 3, 1, 9), day(utc, 2024, 2, 29), day(utc, 2024, 3, 1), 24},
		{"yesterday over a year boundary", "yesterday", at(utc, 2025, 1, 1, 9), day(utc, 2024, 12, 31), day(utc, 2025, 1, 1), 24},
		{"this week on a Wednesday", "this week", at(utc, 2024, 3, 13, 15), day(utc, 2024, 3, 11), day(utc, 2024, 3, 18), 168},
		{"this week on a Monday", "this week", at(utc, 2024, 3, 11, 0), day(utc, 2024, 3, 11), day(utc, 2024, 3, 18), 168},
		{"this week on a Sunday belongs to the ISO week before", "this week", at(utc, 2024, 3, 17, 23), day(utc, 2024, 3, 11), day(utc, 2024, 3, 18), 168},
		{"last week", "last week", at(utc, 2024, 3, 13, 15), day(utc, 2024, 3, 4), day(utc, 2024, 3, 11), 168},
		{"last  week with inner spaces", "Last   Week", at(utc, 2024, 3, 13, 15), day(utc, 2024, 3, 4), day(utc, 2024, 3, 11), 168},
		{"last week over a year boundary", "last week", at(utc, 2025, 1, 2, 12), day(utc, 2024, 12, 23), day(utc, 2024, 12, 30), 168},
		{"this week spanning a year boundary", "this week", at(utc, 2025, 1, 2, 12), day(utc, 2024, 12, 30), day(utc, 2025, 1, 6), 168},
		{"this month", "this month", at(utc, 2024, 2, 10, 8), day(utc, 2024, 2, 1), day(utc, 2024, 3, 1), 29 * 24},
		{"last month over a year boundary", "last month", at(utc, 2025, 1, 31, 8), day(utc, 2024, 12, 1), day(utc, 2025, 1, 1), 31 * 24},
		{"last month from March 31", "last month", at(utc, 2024, 3, 31, 8), day(utc, 2024, 2, 1), day(utc, 2024, 3, 1), 29 * 24},
		{"last 7 days ends today", "last 7 days", at(utc, 2024, 3, 2, 8), day(utc, 2024, 2, 25), day(utc, 2024, 3, 3), 7 * 24},
		{"last 1 day is today", "last 1 day", at(utc, 2024, 3, 2, 8), day(utc, 2024, 3, 2), day(utc, 2024, 3, 3), 24},
		{"last 30 days", "LAST 30 DAYS", at(utc, 2024, 1, 15, 8), day(utc, 2023, 12, 17), day(utc, 2024, 1, 16), 30 * 24},
		{"iso date", "2024-01-15", at(utc, 2026, 3, 2, 8), day(utc, 2024, 1, 15), day(utc, 2024, 1, 16), 24},
		{"leap day", "2024-02-29", at(utc, 2026, 3, 2, 8), day(utc, 2024, 2, 29), day(utc, 2024, 3, 1), 24},
		{"range with inclusive end", "2024-01-01..2024-01-31", at(utc, 2026, 3, 2, 8), day(utc, 2024, 1, 1), day(utc, 2024, 2, 1), 31 * 24},
		{"range with spaces", " 2024-01-01 .. 2024-01-31 ", at(utc, 2026, 3, 2, 8), day(utc, 2024, 1, 1), day(utc, 2024, 2, 1), 31 * 24},
		{"one-day range", "2024-12-31..2024-12-31", at(utc, 2026, 3, 2, 8), day(utc, 2024, 12, 31), day(utc, 2025, 1, 1), 24},

		// DST: calendar days keep their real length.
		{"today on spring-forward day in Berlin", "today", at(berlin, 2024, 3, 31, 12), day(berlin, 2024, 3, 31), day(berlin, 2024, 4, 1), 23},
		{"today on fall-back day in Berlin", "today", at(berlin, 2024, 10, 27, 12), day(berlin, 2024, 10, 27), day(berlin, 2024, 10, 28), 25},
		{"this week containing DST start in New York", "this week", at(newYork, 2024, 3, 13, 12), day(newYork, 2024, 3, 11), day(newYork, 2024, 3, 18), 168},
		{"last week containing DST start in New York", "last week", at(newYork, 2024, 3, 13, 12), day(newYork, 2024, 3, 4), day(newYork, 2024, 3, 11), 167},
		{"this month containing DST end in New York", "this month", at(newYork, 2024, 11, 20, 12), day(newYork, 2024, 11, 1), day(newYork, 2024, 12, 1), 30*24 + 1},
		{"range over DST start in Berlin", "2024-03-30..2024-03-31", at(berlin, 2026, 1, 1, 0), day(berlin, 2024, 3, 30), day(berlin, 2024, 4, 1), 47},
		{"last 7 days in Taipei", "last 7 days", at(taipei, 2024, 1, 3, 1), day(taipei, 2023, 12, 28), day(taipei, 2024, 1, 4), 7 * 24},
		{"a quarter containing DST start in Berlin", "Q1 2024", at(berlin, 2024, 5, 1, 12), day(berlin, 2024, 1, 1), day(berlin, 2024, 4, 1), 91*24 - 1},
		{"the past 2 weeks over DST start in New York", "the past 2 weeks", at(newYork, 2024, 3, 13, 12), day(newYork, 2024, 2, 29), day(newYork, 2024, 3, 14), 14*24 - 1},
		{"a year in Taipei", "in 2024", at(taipei, 2024, 5, 1, 12), day(taipei, 2024, 1, 1), day(taipei, 2025, 1, 1), 366 * 24},
		// In São Paulo 2018-11-04 had no midnight: the day began at 01:00.
		{"today when midnight does not exist", "today", at(saoPaulo, 2018, 11, 4, 12), at(saoPaulo, 2018, 11, 4, 1), day(saoPaulo, 2018, 11, 5), 23},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.value, tt.now)
			require.NoError(t, err)
			assert.True(t, tt.since.Equal(r.Since), "since: want %v, got %v", tt.since, r.Since)
			assert.True(t, tt.until.Equal(r.Until), "until: want %v, got %v", tt.until, r.Until)
			assert.Equal(t, tt.now.Location(), r.Since.Location(), "since keeps now's location")
			if tt.hours != 0 {
				assert.InDelta(t, tt.hours, r.Until.Sub(r.Since).Hours(), 1e-9)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	now := time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		want  string // substring of the message
	}{
		{"", `date "": not a date expression; accepted: today, yesterday`},
		{"tomorrow", `date "tomorrow": not a date expression`},
		{"next year", `date "next year": not a date expression`},
		{"last 0 days", `date "last 0 days": N must be between 1 and`},
		{"last -2 days", `date "last -2 days": N must be between 1 and`},
		{"last 99999999999999999999999 days", "N must be between 1 and"},
		{"last 2.5 days", `not a date expression`},
		{"2024-13-01", `date "2024-13-01": not a date expression`},
		{"2024-02-30", `not a date expression`},
		{"15/01/2024", `not a date expression`},
		{"2024-01-31..2024-01-01", `date "2024-01-31..2024-01-01": range ends before it starts`},
		{"2024-01-01..", `date "2024-01-01..": range end "" is not a YYYY-MM-DD date`},
		{"..2024-01-01", `range start "" is not a YYYY-MM-DD date`},
		{"2024-01-01..last week", `range end "last week" is not a YYYY-MM-DD date`},
		{"2024-01..March", `date "2024-01..March": range end "March" is not a YYYY-MM-DD date, nor a month, quarter or year with its year`},
		{"between 2024-03-01 and 2024-01-01", `date "between 2024-03-01 and 2024-01-01": range ends before it starts`},
		{"from 2024 to 2023", `date "from 2024 to 2023": range ends before it starts`},
		{"between last week and today", `date "between last week and today": not a date expression`},
		{"last 0 weeks", `date "last 0 weeks": N must be between 1 and 5228`},
		{"past 1201 months", `date "past 1201 months": N must be between 1 and 1200`},
		{"last 101 years", `date "last 101 years": N must be between 1 and 100`},
		{"0 days ago", `date "0 days ago": N must be between 1 and 36600`},
		{"Q5 2024", `date "Q5 2024": not a date expression`},
		{"H3 2024", `date "H3 2024": not a date expression`},
		{"H1", `date "H1": not a date expression`},
		{"since", `date "since": not a date expression`},
		{"since v1.17.0", `date "since v1.17.0": not a date expression`},
		{"since 1.2", `date "since 1.2": not a date expression`},
		{"in 1899", `date "in 1899": not a date expression`},
		{"next week", `date "next week": not a date expression`},
		{"3 weeks", `date "3 weeks": not a date expression`},
		{"in 2024 blah", `date "in 2024 blah": unexpected "blah" after "in 2024"`},
		{"February 30 2024", `date "February 30 2024": unexpected "30 2024" after "February"`},
		{"February 29 2023", `unexpected "29 2023" after "February"`},
		{"the the week", `not a date expression`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			_, err := Parse(tt.value, now)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, errors.Is(err, sdk.ErrBadRequest), "a bad date is a bad request")
		})
	}
}

func TestResolve(t *testing.T) {
	now := time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC)
	day := func(m time.Month, d int) time.Time { return time.Date(2024, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name         string
		values       []string
		since, until time.Time
	}{
		{"none is unbounded", nil, time.Time{}, time.Time{}},
		{"one", []string{"yesterday"}, day(3, 12), day(3, 13)},
		{"union of adjacent", []string{"last week", "this week"}, day(3, 4), day(3, 18)},
		{"union ignores order", []string{"today", "2024-01-15"}, day(1, 15), day(3, 14)},
		{"union covers the gap", []string{"2024-01-01", "2024-02-01"}, day(1, 1), day(2, 2)},
		{"contained value", []string{"this month", "yesterday"}, day(3, 1), day(4, 1)},
		{"since and until intersect", []string{"since 2024-01-01", "until 2024-03-31"}, day(1, 1), day(4, 1)},
		{"a bound narrows a closed range", []string{"2024", "since March 2024"}, day(3, 1), time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"before cuts last week", []string{"last week", "before 2024-03-06"}, day(3, 4), day(3, 6)},
		{"the later start wins", []string{"since 2024-01-01", "after 2024-02-10"}, day(2, 11), time.Time{}},
		{"the earlier end wins", []string{"before 2024-03-01", "until 2024-02-10"}, time.Time{}, day(2, 11)},
		{"a bound inside the union", []string{"2024-01-15", "2024-02-15", "since 2024-02-01"}, day(2, 1), day(2, 16)},
		{"a bound alone stays open", []string{"since Monday"}, day(3, 11), time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Resolve(tt.values, now)
			require.NoError(t, err)
			assert.True(t, tt.since.Equal(r.Since), "since: want %v, got %v", tt.since, r.Since)
			assert.True(t, tt.until.Equal(r.Until), "until: want %v, got %v", tt.until, r.Until)
		})
	}

	_, err := Resolve([]string{"today", "someday"}, now)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"someday"`, "the error names the bad value")

	_, err = Resolve([]string{"since 2024-05-01", "until 2024-03-01"}, now)
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Contains(t, err.Error(), `dates ["since 2024-05-01" "until 2024-03-01"]: together they leave no time (from 2024-05-01 to 2024-03-01, both included)`)
}

func TestRangeContains(t *testing.T) {
	r, err := Parse("2024-01-15", time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.True(t, r.Contains(time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)), "since is inclusive")
	assert.True(t, r.Contains(time.Date(2024, 1, 15, 23, 59, 59, 0, time.UTC)))
	assert.False(t, r.Contains(time.Date(2024, 1, 16, 0, 0, 0, 0, time.UTC)), "until is exclusive")
	assert.False(t, r.Contains(time.Date(2024, 1, 14, 23, 59, 59, 0, time.UTC)))

	since, err := Parse("since 2024-01-15", time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.True(t, since.Contains(time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)), "an open end does not limit")
	assert.False(t, since.Contains(time.Date(2024, 1, 14, 0, 0, 0, 0, time.UTC)))
	before, err := Parse("before 2024-01-15", time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.True(t, before.Contains(time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)), "an open start does not limit")
	assert.False(t, before.Contains(time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)))
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"today", "yesterday", "this week", "last week", "this month", "last month",
		"last 7 days", "last 1 day", "2024-01-15", "2024-01-01..2024-01-31", " LAST  30 days ", "last 0 days", "..", "2024-02-30"} {
		f.Add(s, int64(1710342000))
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, value string, unix int64) {
		// Keep now within years 1..9999, where calendar arithmetic is defined.
		now := time.Unix(unix%(250000*86400*365/1000), 0).In(berlin)
		r, err := Parse(value, now)
		if err != nil {
			assert.Contains(t, err.Error(), "date ")
			assert.ErrorIs(t, err, sdk.ErrBadRequest)
			return
		}
		assert.False(t, r.Since.IsZero() && r.Until.IsZero(), "%q at %v gave no bound", value, now)
		if !r.open() {
			assert.True(t, r.Since.Before(r.Until), "%q at %v gave an empty range %v..%v", value, now, r.Since, r.Until)
		}
	})
}

// BenchmarkResolve resolves the kinds of values a plan carries.
func BenchmarkResolve(b *testing.B) {
	now := time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC)
	values := []string{"last week", "2024-01-01..2024-01-31", "last 30 days"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(values, now); err != nil {
			b.Fatal(err)
		}
	}
}
