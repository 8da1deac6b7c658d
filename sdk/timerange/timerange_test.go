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
}

func TestRangeContains(t *testing.T) {
	r, err := Parse("2024-01-15", time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	assert.True(t, r.Contains(time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)), "since is inclusive")
	assert.True(t, r.Contains(time.Date(2024, 1, 15, 23, 59, 59, 0, time.UTC)))
	assert.False(t, r.Contains(time.Date(2024, 1, 16, 0, 0, 0, 0, time.UTC)), "until is exclusive")
	assert.False(t, r.Contains(time.Date(2024, 1, 14, 23, 59, 59, 0, time.UTC)))
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
