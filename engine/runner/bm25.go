package runner

import (
	"math"
	"strings"
	"unicode"
)

// BM25 parameters: the usual Okapi defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25 scores each document against the query terms with Okapi BM25
// over the candidate set: idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
// (never negative, so a term in most documents still counts a little),
// and each term adds idf(t) · tf·(k1+1) / (tf + k1·(1 - b + b·|d|/avgdl)).
// Documents and terms are tokens (see tokens); a query term matches a
// document token it equals or, from three letters on, whose stem begins it
// (so "packfile" matches "packfiles", "fix" matches "fixed", "configure"
// matches "configuration").
func bm25(docs [][]string, terms []string) []float64 {
	return score(docs, terms, nil)
}

// bm25Hits is bm25 that also says which terms each document matches.
func bm25Hits(docs [][]string, terms []string) ([]float64, [][]string) {
	hits := make([][]string, len(docs))
	return score(docs, terms, hits), hits
}

// score computes bm25, appending each term a document matches to its
// hits when hits is not nil.
func score(docs [][]string, terms []string, hits [][]string) []float64 {
	scores := make([]float64, len(docs))
	if len(docs) == 0 || len(terms) == 0 {
		return scores
	}
	total := 0
	for _, d := range docs {
		total += len(d)
	}
	avgdl := float64(total) / float64(len(docs))
	tf := make([]int, len(docs))
	for _, t := range terms {
		n := 0
		stem := stemOf(t)
		for i, d := range docs {
			tf[i] = termFrequency(d, stem)
			if tf[i] > 0 {
				n++
			}
		}
		if n == 0 {
			continue
		}
		idf := math.Log(1 + (float64(len(docs))-float64(n)+0.5)/(float64(n)+0.5))
		for i, d := range docs {
			if tf[i] == 0 {
				continue
			}
			if hits != nil {
				hits[i] = append(hits[i], t)
			}
			f := float64(tf[i])
			norm := 1 - bm25B
			if avgdl > 0 {
				norm += bm25B * float64(len(d)) / avgdl
			}
			scores[i] += idf * f * (bm25K1 + 1) / (f + bm25K1*norm)
		}
	}
	return scores
}

// suffixes are the endings stemOf takes off, longest first.
var suffixes = []string{"ations", "ation", "ings", "ing", "es", "ed", "s", "e"}

// stemOf is term without its inflection ("configure", "configured" and
// "configuration" are "configur"; "parsing" is "pars"), so
// that matching by prefix finds its other forms; a stem keeps at least
// four letters, and "ss" stays.
func stemOf(term string) string {
	for _, suf := range suffixes {
		if stem, ok := strings.CutSuffix(term, suf); ok && len(stem) >= 4 && !strings.HasSuffix(term, "ss") {
			return stem
		}
	}
	return term
}

// termFrequency counts the tokens of doc that term matches.
func termFrequency(doc []string, term string) int {
	n := 0
	for _, tok := range doc {
		if tok == term || len(term) >= 3 && strings.HasPrefix(tok, term) {
			n++
		}
	}
	return n
}

// tokens splits text into lower-case words of letters and digits; a
// hyphenated word also counts joined ("built-in" is built, in and builtin),
// so "builtin" and "built-in" find each other.
func tokens(text string) []string {
	lower := strings.ToLower(text)
	out := strings.FieldsFunc(lower, notWord)
	if !strings.Contains(lower, "-") {
		return out
	}
	for _, f := range strings.FieldsFunc(lower, func(r rune) bool { return r != '-' && notWord(r) }) {
		if f = strings.Trim(f, "-"); strings.Contains(f, "-") {
			out = append(out, strings.ReplaceAll(f, "-", ""))
		}
	}
	return out
}

// notWord reports whether r separates words.
func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
