package timerange

// The lexer splits text into words the grammar reads. A word is a run of
// anything but spaces and sentence punctuation, so "v1.17.0", "PAY-101" and
// "hclsyntax/" stay whole and never look like dates; ".." is a word of its
// own so that "2024-01-01..2024-01-31" reads as three.

type tkind uint8

const (
	tOther tkind = iota
	tNum         // an integer (optionally negative) or a number word; n, digits
	tDate        // YYYY-MM-DD, a valid calendar day; y, m, d
	tYM          // YYYY-MM; y, m
	tDots        // ".."
	tWord        // a keyword; kw, n
)

type keyword uint8

const (
	kwNone keyword = iota
	kwToday
	kwYesterday
	kwThis
	kwLast // last, previous
	kwPast
	kwThe
	kwSince
	kwAfter
	kwBefore
	kwUntil // until, till, through
	kwBetween
	kwAnd
	kwFrom
	kwTo
	kwIn    // in, during
	kwOn    // on
	kwFor   // for, over, within
	kwAbout // about: a date only before a year ("what about 2024?")
	kwStart // start, beginning
	kwEnd
	kwOf
	kwAgo
	kwUnit    // n: a unit
	kwMonth   // n: 1..12
	kwWeekday // n: time.Weekday
	kwQuarter // n: 1..4 (Q1..Q4); y when written "Q1-2024" or "2024-Q1"
	kwHalf    // n: 1..2 (H1, H2); y as for kwQuarter
	kwOrdinal // n: 1..4 (first … fourth, 1st … 4th)
	kwHalfWord
)

type unit uint8

const (
	uDay unit = iota + 1
	uWeek
	uMonth
	uQuarter
	uYear
)

// token is one word; small, because Find keeps a question's words on the
// stack.
type token struct {
	start, end int32
	n, y       int32
	kind       tkind
	kw         keyword
	digits     uint8 // tNum: how many digits ("2024" has 4, "two" none)
	m, d       uint8
}

// maxWord bounds the length of a word the lexer looks up as a keyword.
const maxWord = 12

// lex appends the words of s to toks.
func lex(s string, toks []token) []token {
	i := 0
	for i < len(s) {
		c := s[i]
		if isSep(c) {
			i++
			continue
		}
		if c == '.' && i+1 < len(s) && s[i+1] == '.' {
			j := i
			for j < len(s) && s[j] == '.' {
				j++
			}
			t := token{start: int32(i), end: int32(j), kind: tOther}
			if j-i == 2 {
				t.kind = tDots
			}
			toks = append(toks, t)
			i = j
			continue
		}
		j := i
		for j < len(s) && !isSep(s[j]) && !(s[j] == '.' && j+1 < len(s) && s[j+1] == '.') {
			j++
		}
		end := j
		if s[end-1] == '.' && end-1 > i { // a sentence's full stop
			end--
		}
		toks = append(toks, classify(s, i, end))
		i = j
	}
	return toks
}

// isSep reports whether c separates words: spaces and the punctuation that
// ends or encloses a phrase. Bytes of multi-byte runes are word bytes.
func isSep(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', ',', ';', '!', '?', '(', ')', '[', ']', '{', '}', '"', '\'', '`', '<', '>', '*':
		return true
	}
	return false
}

func classify(s string, start, end int) token {
	t := token{start: int32(start), end: int32(end)}
	w := s[start:end]
	if n, digits, ok := integer(w); ok {
		t.kind, t.n, t.digits = tNum, int32(n), uint8(min(digits, 255))
		return t
	}
	if y, m, d, ok := isoDate(w); ok {
		t.kind, t.y, t.m, t.d = tDate, int32(y), uint8(m), uint8(d)
		return t
	}
	if y, m, ok := isoMonth(w); ok {
		t.kind, t.y, t.m = tYM, int32(y), uint8(m)
		return t
	}
	if len(w) > maxWord {
		return t
	}
	var buf [maxWord]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	lower := buf[:len(w)]
	if kw, n, y, ok := periodCode(lower); ok {
		t.kind, t.kw, t.n, t.y = tWord, kw, int32(n), int32(y)
		return t
	}
	if n, ok := dayOrdinal(lower); ok {
		t.kind, t.n, t.digits = tNum, int32(n), uint8(len(lower)-2)
		if n <= 4 {
			t.kind, t.kw = tWord, kwOrdinal
		}
		return t
	}
	kw, n := lookup(lower)
	if kw != kwNone {
		t.kind, t.kw, t.n = tWord, kw, int32(n)
	} else if n > 0 {
		t.kind, t.n = tNum, int32(n)
	}
	return t
}

// lookup maps a lower-case word to its keyword; number words come back as
// kwNone with n set.
func lookup(w []byte) (keyword, int) {
	switch string(w) {
	case "today":
		return kwToday, 0
	case "yesterday":
		return kwYesterday, 0
	case "this", "current":
		return kwThis, 0
	case "last", "previous", "prior":
		return kwLast, 0
	case "past":
		return kwPast, 0
	case "the":
		return kwThe, 0
	case "since":
		return kwSince, 0
	case "after":
		return kwAfter, 0
	case "before":
		return kwBefore, 0
	case "until", "till", "through", "thru":
		return kwUntil, 0
	case "between":
		return kwBetween, 0
	case "and":
		return kwAnd, 0
	case "from":
		return kwFrom, 0
	case "to":
		return kwTo, 0
	case "in", "during":
		return kwIn, 0
	case "on":
		return kwOn, 0
	case "for", "over", "within":
		return kwFor, 0
	case "about":
		return kwAbout, 0
	case "start", "beginning":
		return kwStart, 0
	case "end":
		return kwEnd, 0
	case "of":
		return kwOf, 0
	case "ago":
		return kwAgo, 0
	case "half":
		return kwHalfWord, 0
	case "day", "days":
		return kwUnit, int(uDay)
	case "week", "weeks":
		return kwUnit, int(uWeek)
	case "month", "months":
		return kwUnit, int(uMonth)
	case "quarter", "quarters":
		return kwUnit, int(uQuarter)
	case "year", "years":
		return kwUnit, int(uYear)
	case "first":
		return kwOrdinal, 1
	case "second":
		return kwOrdinal, 2
	case "third":
		return kwOrdinal, 3
	case "fourth":
		return kwOrdinal, 4
	case "january", "jan":
		return kwMonth, 1
	case "february", "feb":
		return kwMonth, 2
	case "march", "mar":
		return kwMonth, 3
	case "april", "apr":
		return kwMonth, 4
	case "may":
		return kwMonth, 5
	case "june", "jun":
		return kwMonth, 6
	case "july", "jul":
		return kwMonth, 7
	case "august", "aug":
		return kwMonth, 8
	case "september", "sep", "sept":
		return kwMonth, 9
	case "october", "oct":
		return kwMonth, 10
	case "november", "nov":
		return kwMonth, 11
	case "december", "dec":
		return kwMonth, 12
	case "sunday":
		return kwWeekday, 0
	case "monday":
		return kwWeekday, 1
	case "tuesday":
		return kwWeekday, 2
	case "wednesday":
		return kwWeekday, 3
	case "thursday":
		return kwWeekday, 4
	case "friday":
		return kwWeekday, 5
	case "saturday":
		return kwWeekday, 6
	case "one":
		return kwNone, 1
	case "two":
		return kwNone, 2
	case "three":
		return kwNone, 3
	case "four":
		return kwNone, 4
	case "five":
		return kwNone, 5
	case "six":
		return kwNone, 6
	case "seven":
		return kwNone, 7
	case "eight":
		return kwNone, 8
	case "nine":
		return kwNone, 9
	case "ten":
		return kwNone, 10
	case "eleven":
		return kwNone, 11
	case "twelve":
		return kwNone, 12
	}
	return kwNone, 0
}

// periodCode recognises "q1".."q4" and "h1", "h2", alone or joined to a
// year by a hyphen ("q1-2024", "2024-q1").
func periodCode(w []byte) (keyword, int, int, bool) {
	code := func(b []byte) (keyword, int, bool) {
		if len(b) != 2 || b[1] < '1' {
			return kwNone, 0, false
		}
		n := int(b[1] - '0')
		switch {
		case b[0] == 'q' && n <= 4:
			return kwQuarter, n, true
		case b[0] == 'h' && n <= 2:
			return kwHalf, n, true
		}
		return kwNone, 0, false
	}
	if kw, n, ok := code(w); ok {
		return kw, n, 0, true
	}
	if len(w) != 7 {
		return kwNone, 0, 0, false
	}
	if w[2] == '-' {
		if kw, n, ok := code(w[:2]); ok {
			if y, ok := year4(w[3:]); ok {
				return kw, n, y, true
			}
		}
	}
	if w[4] == '-' {
		if kw, n, ok := code(w[5:]); ok {
			if y, ok := year4(w[:4]); ok {
				return kw, n, y, true
			}
		}
	}
	return kwNone, 0, 0, false
}

// dayOrdinal recognises "1st", "2nd", "3rd", "15th" … up to 31.
func dayOrdinal(w []byte) (int, bool) {
	if len(w) < 3 || len(w) > 4 {
		return 0, false
	}
	n, digits, ok := integer(string(w[:len(w)-2]))
	if !ok || digits == 0 || n < 1 || n > 31 || w[0] == '0' {
		return 0, false
	}
	want := "th"
	if n/10 != 1 {
		switch n % 10 {
		case 1:
			want = "st"
		case 2:
			want = "nd"
		case 3:
			want = "rd"
		}
	}
	return n, string(w[len(w)-2:]) == want
}

// integer parses an optionally negative run of digits. Values too large for
// the grammar saturate, so "last 99999999999999999999 days" is a bad N
// rather than an unknown expression.
func integer(w string) (n, digits int, ok bool) {
	neg := len(w) > 1 && w[0] == '-'
	if neg {
		w = w[1:]
	}
	if w == "" {
		return 0, 0, false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		if n < 1<<28 {
			n = n*10 + int(c-'0')
		}
	}
	if neg {
		n = -n
	}
	return n, len(w), true
}

func year4(w []byte) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	n, _, ok := integer(string(w))
	return n, ok && n >= 0
}

// isoDate parses YYYY-MM-DD, a day that exists.
func isoDate(w string) (y, m, d int, ok bool) {
	if len(w) != 10 || w[4] != '-' || w[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := digitsOf(w[:4])
	m, ok2 := digitsOf(w[5:7])
	d, ok3 := digitsOf(w[8:])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// isoMonth parses YYYY-MM.
func isoMonth(w string) (y, m int, ok bool) {
	if len(w) != 7 || w[4] != '-' {
		return 0, 0, false
	}
	y, ok1 := digitsOf(w[:4])
	m, ok2 := digitsOf(w[5:])
	if !ok1 || !ok2 || m < 1 || m > 12 {
		return 0, 0, false
	}
	return y, m, true
}

func digitsOf(w string) (int, bool) {
	n := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn is the length of month m of year y (proleptic Gregorian).
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
