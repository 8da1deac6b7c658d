package timerange

// The grammar reads words into a phrase: an operator over one or two
// periods. It is a hand-written recursive descent over the lexer's words,
// greedy (each rule takes its longest form) and allocation-free, so that
// Find can try it at every word of a question.

// pkind is what a period names.
type pkind uint8

const (
	pDay      pkind = iota + 1 // y, m, d; y == 0: the most recent such day not in the future
	pMonth                     // y, m; y == 0: the most recent such month not in the future
	pYear                      // y
	pQuarter                   // n, year
	pHalf                      // n, year
	pCalendar                  // u, n: the calendar unit n units from now's (0 this, -1 last)
	pRolling                   // u, n: the n units ending today, today included
	pAgo                       // u, n: the day n units before today
	pWeekday                   // n: the most recent such weekday before today
)

// period is a closed span of calendar days, not yet placed on a clock.
type period struct {
	kind    pkind
	u       unit
	n       int
	y, m, d int
	yearRel bool // pQuarter, pHalf: y is an offset from now's year
	edge    edge // only the first or the last day
	// weak periods ("2024", "March", "Monday") are read in free text only
	// after a word that introduces a date ("in 2024", "since Monday").
	weak bool
}

// static reports whether the period is the same whatever the clock says:
// only such periods bound "between X and Y" and "X..Y", so their order
// is known without a clock.
func (p period) static() bool {
	switch p.kind {
	case pDay, pMonth:
		return p.y != 0
	case pYear:
		return true
	case pQuarter, pHalf:
		return !p.yearRel
	}
	return false
}

// edge narrows a period to its first or last day: "the start of 2024".
type edge uint8

const (
	edgeFirst edge = iota + 1
	edgeLast
)

type op uint8

const (
	opIn      op = iota + 1 // the period itself
	opSince                 // from its first day on
	opAfter                 // from the day after it
	opBefore                // up to its first day, excluded
	opUntil                 // up to its last day, included
	opBetween               // from a's first day to b's last
)

type phrase struct {
	op   op
	a, b period
}

// parser reads toks; strict is Find's mode, where weak periods need a lead
// word.
type parser struct {
	toks   []token
	strict bool
}

func (p *parser) kw(i int, kw keyword) bool {
	return i < len(p.toks) && p.toks[i].kind == tWord && p.toks[i].kw == kw
}

// phrase reads the longest phrase starting at word i and returns it with the
// index of the word after it.
func (p *parser) phrase(i int) (phrase, int, bool) {
	if i >= len(p.toks) {
		return phrase{}, i, false
	}
	t := p.toks[i]
	if t.kind == tWord {
		switch t.kw {
		case kwBetween:
			if a, j, ok := p.period(i + 1); ok && a.static() && p.kw(j, kwAnd) {
				if b, k, ok := p.period(j + 1); ok && b.static() {
					return phrase{op: opBetween, a: a, b: b}, k, true
				}
			}
			return phrase{}, i, false
		case kwFrom:
			a, j, ok := p.period(i + 1)
			if !ok || !p.admits(kwFrom, a) {
				return phrase{}, i, false
			}
			if a.static() && (p.kw(j, kwTo) || p.kw(j, kwUntil) || p.at(j, tDots)) {
				if b, k, ok := p.period(j + 1); ok && b.static() {
					return phrase{op: opBetween, a: a, b: b}, k, true
				}
			}
			return phrase{op: opIn, a: a}, j, true
		case kwSince, kwAfter, kwBefore, kwUntil, kwIn, kwOn, kwFor, kwAbout, kwOf:
			a, j, ok := p.period(i + 1)
			if t.kw == kwOf && !ofDate(a) {
				// "of" leads only a year or a month of a year: "the
				// largest commit of 2025"; "the end of 2024" reads itself.
				ok = false
			}
			if !ok || !p.admits(t.kw, a) {
				return phrase{}, i, false
			}
			return phrase{op: boundOp(t.kw), a: a}, j, true
		}
	}
	a, j, ok := p.period(i)
	if !ok {
		return phrase{}, i, false
	}
	if a.static() && (p.at(j, tDots) || (p.kw(j, kwTo) && (!a.weak || !p.strict))) {
		if b, k, ok := p.period(j + 1); ok && b.static() {
			return phrase{op: opBetween, a: a, b: b}, k, true
		}
	}
	if a.weak && p.strict {
		return phrase{}, i, false
	}
	return phrase{op: opIn, a: a}, j, true
}

// admits reports whether period a may follow the lead word in free text.
// A weak period needs a lead that makes it a date: "in March", "since
// Monday", "on Friday", "from 2023"; but "from Jan" and "for June" name
// people as often as months, and "for 2024" is rarely a date.
func (p *parser) admits(lead keyword, a period) bool {
	if !p.strict || !a.weak {
		return true
	}
	switch lead {
	case kwSince, kwAfter, kwBefore, kwUntil, kwIn:
		return true
	case kwOn:
		return a.kind == pDay || a.kind == pWeekday
	case kwFrom:
		return a.y != 0 || (a.kind != pMonth && a.kind != pDay)
	case kwAbout:
		return a.y != 0 // "about 2024", not "about May" (a person as often)
	case kwOf:
		return ofDate(a)
	}
	return false
}

// ofDate reports whether a may follow "of" as a date: a year or a month
// of a year as written ("of 2025", "of March 2025"), not "of May".
func ofDate(a period) bool {
	return a.y != 0 && a.edge == 0 && !a.yearRel && (a.kind == pYear || a.kind == pMonth)
}

func boundOp(kw keyword) op {
	switch kw {
	case kwSince:
		return opSince
	case kwAfter:
		return opAfter
	case kwBefore:
		return opBefore
	case kwUntil:
		return opUntil
	}
	return opIn
}

func (p *parser) at(i int, k tkind) bool { return i < len(p.toks) && p.toks[i].kind == k }

// period reads the longest period at word i.
func (p *parser) period(i int) (period, int, bool) {
	if i >= len(p.toks) {
		return period{}, i, false
	}
	t := p.toks[i]
	switch t.kind {
	case tDate:
		return period{kind: pDay, y: int(t.y), m: int(t.m), d: int(t.d)}, i + 1, true
	case tYM:
		return period{kind: pMonth, y: int(t.y), m: int(t.m)}, i + 1, true
	case tNum:
		return p.number(i)
	case tWord:
	default:
		return period{}, i, false
	}
	switch t.kw {
	case kwThe:
		switch {
		case p.kw(i+1, kwThe):
			return period{}, i, false
		case p.kw(i+1, kwLast) && p.kw(i+2, kwUnit):
			// "the last month" is the month up to today, as "the past month".
			return period{kind: pRolling, u: unit(p.toks[i+2].n), n: 1}, i + 3, true
		}
		return p.period(i + 1)
	case kwStart, kwEnd:
		if !p.kw(i+1, kwOf) {
			return period{}, i, false
		}
		edge := edgeFirst
		if t.kw == kwEnd {
			edge = edgeLast
		}
		if p.kw(i+2, kwThe) && p.kw(i+3, kwUnit) {
			return period{kind: pCalendar, u: unit(p.toks[i+3].n), edge: edge}, i + 4, true
		}
		inner := i + 2
		if p.kw(inner, kwThe) {
			inner++
		}
		if p.kw(inner, kwStart) || p.kw(inner, kwEnd) {
			// "the start of the end of …" nests no further: the grammar
			// looks ahead a bounded number of words at each word.
			return period{}, i, false
		}
		q, j, ok := p.period(i + 2)
		if !ok {
			return period{}, i, false
		}
		// "the start of 2024" is a date even where "2024" alone is not.
		q.edge, q.weak = edge, false
		return q, j, true
	case kwToday:
		return period{kind: pCalendar, u: uDay}, i + 1, true
	case kwYesterday:
		return period{kind: pCalendar, u: uDay, n: -1}, i + 1, true
	case kwThis:
		if p.kw(i+1, kwUnit) {
			return period{kind: pCalendar, u: unit(int(p.toks[i+1].n))}, i + 2, true
		}
	case kwLast:
		return p.last(i)
	case kwPast:
		if p.kw(i+1, kwUnit) {
			return period{kind: pRolling, u: unit(int(p.toks[i+1].n)), n: 1}, i + 2, true
		}
		if p.at(i+1, tNum) && p.kw(i+2, kwUnit) {
			return period{kind: pRolling, u: unit(int(p.toks[i+2].n)), n: int(p.toks[i+1].n)}, i + 3, true
		}
	case kwQuarter, kwHalf:
		kind := pQuarter
		if t.kw == kwHalf {
			kind = pHalf
		}
		q := period{kind: kind, n: int(t.n), y: int(t.y)}
		if int(t.y) != 0 {
			return q, i + 1, true
		}
		if y, yrel, j, ok := p.yearRef(i + 1); ok {
			q.y, q.yearRel = y, yrel
			return q, j, true
		}
		// "Q1" alone is this year's; "H1" alone is too rare a date to read.
		q.yearRel = true
		return q, i + 1, kind == pQuarter
	case kwOrdinal:
		return p.ordinal(i)
	case kwMonth:
		q := period{kind: pMonth, m: int(t.n)}
		j := i + 1
		if d, ok := p.dayOfMonth(j, int(t.n)); ok {
			q.kind, q.d = pDay, d
			j++
		}
		if y, ok := p.year(j); ok {
			if q.kind == pDay && q.d > daysIn(y, q.m) {
				return period{kind: pMonth, m: int(t.n), weak: true}, i + 1, true
			}
			q.y = y
			return q, j + 1, true
		}
		if q.kind == pDay && q.m == 2 && q.d == 29 {
			// A yearless 29 February would need a leap-year search.
			return period{kind: pMonth, m: int(t.n), weak: true}, i + 1, true
		}
		q.weak = true
		return q, j, true
	case kwWeekday:
		return period{kind: pWeekday, n: int(t.n), weak: true}, i + 1, true
	}
	return period{}, i, false
}

// number reads the periods that start with a number: a year ("2024",
// "2024 Q1"), a day ("15 January 2024") or "3 weeks ago".
func (p *parser) number(i int) (period, int, bool) {
	t := p.toks[i]
	if y, ok := p.year(i); ok {
		if p.kw(i+1, kwQuarter) || p.kw(i+1, kwHalf) {
			if c := p.toks[i+1]; int(c.y) == 0 {
				kind := pQuarter
				if c.kw == kwHalf {
					kind = pHalf
				}
				return period{kind: kind, n: int(c.n), y: y}, i + 2, true
			}
		}
		return period{kind: pYear, y: y, weak: true}, i + 1, true
	}
	if p.kw(i+1, kwMonth) {
		m := int(p.toks[i+1].n)
		if d, ok := p.dayOfMonth(i, m); ok {
			if y, ok := p.year(i + 2); ok && d <= daysIn(y, m) {
				return period{kind: pDay, y: y, m: m, d: d}, i + 3, true
			}
			if m != 2 || d != 29 {
				return period{kind: pDay, m: m, d: d, weak: true}, i + 2, true
			}
		}
	}
	if p.kw(i+1, kwUnit) && p.kw(i+2, kwAgo) {
		return period{kind: pAgo, u: unit(int(p.toks[i+1].n)), n: int(t.n)}, i + 3, true
	}
	return period{}, i, false
}

// ordinal reads "first half [of 2025]", "the second quarter of last year".
// Without a year it is this year's, and weak: "the first half of the file"
// is no date.
func (p *parser) ordinal(i int) (period, int, bool) {
	t := p.toks[i]
	kind := pQuarter
	switch {
	case p.kw(i+1, kwHalfWord) && int(t.n) <= 2:
		kind = pHalf
	case p.kw(i+1, kwUnit) && unit(int(p.toks[i+1].n)) == uQuarter:
	default:
		return period{}, i, false
	}
	q := period{kind: kind, n: int(t.n), yearRel: true}
	if y, yrel, k, ok := p.yearRef(i + 2); ok {
		q.y, q.yearRel = y, yrel
		return q, k, true
	}
	q.weak = true
	return q, i + 2, true
}

// last reads "last week", "last 30 days", "last Monday".
func (p *parser) last(i int) (period, int, bool) {
	switch {
	case p.kw(i+1, kwUnit):
		return period{kind: pCalendar, u: unit(int(p.toks[i+1].n)), n: -1}, i + 2, true
	case p.at(i+1, tNum) && p.kw(i+2, kwUnit):
		return period{kind: pRolling, u: unit(int(p.toks[i+2].n)), n: int(p.toks[i+1].n)}, i + 3, true
	case p.kw(i+1, kwWeekday):
		return period{kind: pWeekday, n: int(p.toks[i+1].n)}, i + 2, true
	}
	return period{}, i, false
}

// yearRef reads the year a quarter or half belongs to: "2024", "of 2024",
// "this year", "last year".
func (p *parser) yearRef(i int) (y int, rel bool, next int, ok bool) {
	if p.kw(i, kwOf) {
		i++
	}
	if y, ok := p.year(i); ok {
		return y, false, i + 1, true
	}
	if p.kw(i, kwThe) && p.kw(i+1, kwUnit) && unit(int(p.toks[i+1].n)) == uYear {
		return 0, true, i + 2, true
	}
	if (p.kw(i, kwThis) || p.kw(i, kwLast)) && p.kw(i+1, kwUnit) && unit(int(p.toks[i+1].n)) == uYear {
		if p.toks[i].kw == kwLast {
			return -1, true, i + 2, true
		}
		return 0, true, i + 2, true
	}
	return 0, false, i, false
}

// Years outside these bounds are taken for numbers, not years.
const minYear, maxYear = 1900, 2199

func (p *parser) year(i int) (int, bool) {
	if !p.at(i, tNum) {
		return 0, false
	}
	t := p.toks[i]
	return int(t.n), t.digits == 4 && int(t.n) >= minYear && int(t.n) <= maxYear
}

// dayOfMonth reads a day number valid in month m of some year.
func (p *parser) dayOfMonth(i, m int) (int, bool) {
	if i >= len(p.toks) {
		return 0, false
	}
	t := p.toks[i]
	switch {
	case t.kind == tNum && t.digits >= 1 && t.digits <= 2:
	case t.kind == tWord && t.kw == kwOrdinal:
	default:
		return 0, false
	}
	return int(t.n), int(t.n) >= 1 && int(t.n) <= daysIn(2000, m)
}
