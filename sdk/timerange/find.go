package timerange

import "time"

// Match is a date phrase found in free text: Text is text[Start:End].
type Match struct {
	Start, End int
	Text       string
}

// Find returns the date phrases of a question in text order, without
// overlaps, each the longest phrase that starts where it does; Parse
// accepts every Match.Text. It is stricter than Parse: a bare year, month
// or weekday counts only after a word that introduces a date ("in 2024",
// "since Monday"), so "2024 files" and "may" are not dates, and a version
// ("v1.17.0", "1.2") never is.
func Find(text string) []Match {
	var buf [32]token
	toks := lex(text, buf[:0])
	p := parser{toks: toks, strict: true}
	var out []Match
	for i := 0; i < len(toks); {
		ph, next, ok := p.phrase(i)
		if !ok {
			i++
			continue
		}
		// Any clock will do: the only failures (a bad N, a range that
		// ends before it starts) do not depend on it.
		if _, err := ph.resolve(time.Date(2000, 6, 15, 12, 0, 0, 0, time.UTC)); err != nil {
			i++
			continue
		}
		start, end := int(toks[i].start), int(toks[next-1].end)
		out = append(out, Match{Start: start, End: end, Text: text[start:end]})
		i = next
	}
	return out
}
