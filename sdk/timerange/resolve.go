package timerange

import (
	"fmt"
	"time"
)

// maxDays bounds "last N days" so that the arithmetic stays far from
// overflow; the other units get the same hundred years.
const maxDays = 100 * 366

// maxCount is the largest N for "last N <unit>" and "N <unit> ago".
func maxCount(u unit) int {
	switch u {
	case uDay:
		return maxDays
	case uWeek:
		return maxDays / 7
	case uMonth:
		return 1200
	case uQuarter:
		return 400
	}
	return 100
}

// errEmpty is the cause of an empty "between X and Y".
var errEmpty = fmt.Errorf("range ends before it starts")

// resolve places ph on now's clock.
func (ph phrase) resolve(now time.Time) (Range, error) {
	a, err := ph.a.resolve(now)
	if err != nil {
		return Range{}, err
	}
	switch ph.op {
	case opSince:
		return Range{Since: a.Since}, nil
	case opAfter:
		return Range{Since: a.Until}, nil
	case opBefore:
		return Range{Until: a.Since}, nil
	case opUntil:
		return Range{Until: a.Until}, nil
	case opBetween:
		b, err := ph.b.resolve(now)
		if err != nil {
			return Range{}, err
		}
		if !b.Until.After(a.Since) {
			return Range{}, errEmpty
		}
		return Range{Since: a.Since, Until: b.Until}, nil
	}
	return a, nil
}

// resolve places the period on now's calendar: weeks are ISO weeks from
// Monday, and every bound is the start of a day in now's location.
func (p period) resolve(now time.Time) (Range, error) {
	r, err := p.span(now)
	switch {
	case err != nil:
		return Range{}, err
	case p.edge == edgeFirst:
		return Range{r.Since, addDays(r.Since, 1)}, nil
	case p.edge == edgeLast:
		return Range{addDays(r.Until, -1), r.Until}, nil
	}
	return r, nil
}

// span is the whole period, edges aside.
func (p period) span(now time.Time) (Range, error) {
	loc := now.Location()
	switch p.kind {
	case pDay:
		y := p.y
		if y == 0 {
			y = now.Year()
			if dayStart(y, p.m, p.d, loc).After(now) {
				y--
			}
		}
		day := dayStart(y, p.m, p.d, loc)
		return Range{day, addDays(day, 1)}, nil
	case pMonth:
		y := p.y
		if y == 0 {
			y = now.Year()
			if p.m > int(now.Month()) {
				y--
			}
		}
		return months(y, p.m, 1, loc), nil
	case pYear:
		return months(p.y, 1, 12, loc), nil
	case pQuarter, pHalf:
		y := p.y
		if p.yearRel {
			y += now.Year()
		}
		size := 3
		if p.kind == pHalf {
			size = 6
		}
		return months(y, (p.n-1)*size+1, size, loc), nil
	case pCalendar:
		return calendar(now, p.u, p.n), nil
	case pRolling, pAgo:
		if p.n < 1 || p.n > maxCount(p.u) {
			return Range{}, fmt.Errorf("N must be between 1 and %d", maxCount(p.u))
		}
		tomorrow := midnight(now, 1)
		start := back(now, p.u, p.n)
		if p.kind == pAgo {
			return Range{start, addDays(start, 1)}, nil
		}
		return Range{addDays(start, 1), tomorrow}, nil
	case pWeekday:
		days := (int(now.Weekday()) - p.n + 7) % 7
		if days == 0 {
			days = 7
		}
		day := midnight(now, -days)
		return Range{day, addDays(day, 1)}, nil
	}
	return Range{}, fmt.Errorf("unknown period kind %d", p.kind)
}

// calendar is the calendar unit u that lies offset units from now's.
func calendar(now time.Time, u unit, offset int) Range {
	loc := now.Location()
	y, m := now.Year(), int(now.Month())
	switch u {
	case uDay:
		return Range{midnight(now, offset), midnight(now, offset+1)}
	case uWeek:
		monday := midnight(now, -daysSinceMonday(now)+7*offset)
		return Range{monday, addDays(monday, 7)}
	case uMonth:
		return months(y, m+offset, 1, loc)
	case uQuarter:
		return months(y, (m-1)/3*3+1+3*offset, 3, loc)
	}
	return months(y+offset, 1, 12, loc)
}

// back is the day n units before today; a month back from 31 March is the
// last day of February.
func back(now time.Time, u unit, n int) time.Time {
	switch u {
	case uDay:
		return midnight(now, -n)
	case uWeek:
		return midnight(now, -7*n)
	}
	size := 1
	switch u {
	case uQuarter:
		size = 3
	case uYear:
		size = 12
	}
	total := int(now.Month()) - 1 - n*size
	y := now.Year() + floorDiv(total, 12)
	m := total - floorDiv(total, 12)*12 + 1
	return dayStart(y, m, min(now.Day(), daysIn(y, m)), now.Location())
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// months is the span of n whole months from month m of year y; m may
// overflow either way, time.Date normalises it.
func months(y, m, n int, loc *time.Location) Range {
	return Range{dayStart(y, m, 1, loc), dayStart(y, m+n, 1, loc)}
}

// dayStart is the start of the calendar day y-m-d in loc (normalised).
func dayStart(y, m, d int, loc *time.Location) time.Time {
	return midnight(time.Date(y, time.Month(m), d, 12, 0, 0, 0, loc), 0)
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
