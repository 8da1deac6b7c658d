package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func utc(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestMovePeriodIsCalendarCorrect(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	tests := []struct {
		name, query  string
		since, until time.Time
		want         string
	}{
		{"a year before a leap year", "and before that?", utc(2025, 1, 1), utc(2026, 1, 1), "2024-01-01..2024-12-31"},
		{"a leap year before", "before that", utc(2024, 1, 1), utc(2025, 1, 1), "2023-01-01..2023-12-31"},
		{"a year after a leap year", "and after that?", utc(2023, 1, 1), utc(2024, 1, 1), "2024-01-01..2024-12-31"},
		{"two years", "before that", utc(2023, 1, 1), utc(2025, 1, 1), "2021-01-01..2022-12-31"},
		{"the year before", "and the year before?", utc(2025, 1, 1), utc(2026, 1, 1), "2024-01-01..2024-12-31"},
		{"March before that is February of a leap year", "before that", utc(2024, 3, 1), utc(2024, 4, 1), "2024-02-01..2024-02-29"},
		{"March before that is February", "before that", utc(2025, 3, 1), utc(2025, 4, 1), "2025-02-01..2025-02-28"},
		{"February after that is March", "after that", utc(2024, 2, 1), utc(2024, 3, 1), "2024-03-01..2024-03-31"},
		{"January before that is December", "before that", utc(2025, 1, 1), utc(2025, 2, 1), "2024-12-01..2024-12-31"},
		{"a quarter before that", "before that", utc(2025, 4, 1), utc(2025, 7, 1), "2025-01-01..2025-03-31"},
		{"the month before a month", "the month before", utc(2024, 3, 1), utc(2024, 4, 1), "2024-02-01..2024-02-29"},
		{"the month before from a 31st clamps", "the month before", utc(2025, 3, 31), utc(2025, 4, 7), "2025-02-28..2025-03-30"},
		{"the month after to a 31st clamps", "the month after", utc(2024, 1, 24), utc(2024, 1, 31), "2024-01-31..2024-02-28"},
		{"a week before that", "before that", utc(2024, 2, 26), utc(2024, 3, 4), "2024-02-19..2024-02-25"},
		{"the week before over a leap day", "the week before", utc(2024, 3, 4), utc(2024, 3, 11), "2024-02-26..2024-03-03"},
		{"the day before", "the day before", utc(2024, 3, 1), utc(2024, 3, 2), "2024-02-29..2024-02-29"},
		{"a week over a DST change", "before that", time.Date(2025, 3, 31, 0, 0, 0, 0, berlin), time.Date(2025, 4, 7, 0, 0, 0, 0, berlin), "2025-03-24..2025-03-30"},
		{"a DST week before that", "before that", time.Date(2025, 3, 24, 0, 0, 0, 0, berlin), time.Date(2025, 3, 31, 0, 0, 0, 0, berlin), "2025-03-17..2025-03-23"},
		{"a month in a DST zone", "before that", time.Date(2025, 4, 1, 0, 0, 0, 0, berlin), time.Date(2025, 5, 1, 0, 0, 0, 0, berlin), "2025-03-01..2025-03-31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := movePeriod(tt.query, tt.since, tt.until)
			require.True(t, ok)
			assert.Equal(t, tt.want, c.Value)
		})
	}
}

// FuzzMovePeriodCalendar moves any period back and forth: the move before
// ends where the period starts, the move after starts where it ends, and a
// period of whole months or years moves to whole months or years.
func FuzzMovePeriodCalendar(f *testing.F) {
	f.Add(int64(2025), uint8(1), uint8(1), uint16(365), "before that")
	f.Add(int64(2024), uint8(2), uint8(29), uint16(7), "the month before")
	f.Add(int64(2024), uint8(3), uint8(1), uint16(31), "after that")
	f.Fuzz(func(t *testing.T, year int64, month, d uint8, days uint16, q string) {
		since := time.Date(int(1900+year%300), time.Month(1+month%12), 1+int(d%31), 0, 0, 0, 0, time.UTC)
		until := since.AddDate(0, 0, 1+int(days%4000))
		c, ok := movePeriod(q, since, until)
		if !ok {
			return
		}
		first, last, found := splitRange(c.Value)
		if !found {
			t.Fatalf("%q: %q is not a closed period", q, c.Value)
		}
		if last < first {
			t.Fatalf("%q from %s..%s: %q ends before it starts", q, day(since), day(until), c.Value)
		}
		if last != day(since.AddDate(0, 0, -1)) && first != day(until) {
			t.Fatalf("%q from %s..%s: %q neither ends at the start nor starts at the end", q, day(since), day(until), c.Value)
		}
		if sh := length(since, until); sh.months > 0 && moveByLen().MatchString(q) && !moveByUnit().MatchString(q) && first[8:] != "01" {
			t.Fatalf("%q: %q of a whole-month period does not start on the 1st", q, c.Value)
		}
	})
}

func splitRange(v string) (first, last string, ok bool) {
	if len(v) != len("2006-01-02..2006-01-02") || v[10:12] != ".." {
		return "", "", false
	}
	return v[:10], v[12:], true
}

// BenchmarkMovePeriod is "and before that?" after a year: matching the
// move and stepping the period by calendar months.
func BenchmarkMovePeriod(b *testing.B) {
	since, until := utc(2025, 1, 1), utc(2026, 1, 1)
	b.ReportAllocs()
	for b.Loop() {
		if c, ok := movePeriod("and before that?", since, until); !ok || c.Value == "" {
			b.Fatal(c)
		}
	}
}
