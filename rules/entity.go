package rules

import (
	"slices"
	"strings"

	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/sdk"
)

// Extract appends to dst the entity's values found in query and returns the
// extended slice. A pattern's value is, in order of preference: its group
// named "release" as the range of that release (ReleaseRange); its groups
// named "from" and "to" joined as a revision range ("from..to", "from..",
// or "to" alone); its first capture group when that group matched; else the
// whole match. Values are trimmed of spaces; empty values, the Ignore list
// (case-insensitive) and values already appended by this call are dropped,
// so values keep first-seen order without duplicates.
func (e *Entity) Extract(query string, dst []string) []string {
	return e.ExtractOutside(cond.NewText(query), nil, dst)
}

// Span is a byte range [Start, End) of a query.
type Span struct{ Start, End int }

// ExtractOutside is Extract over text, dropping values that overlap any of
// taken: spans another extractor already claimed ("Q1" inside the date
// "Q1 2024").
func (e *Entity) ExtractOutside(text cond.Text, taken []Span, dst []string) []string {
	query := text.String()
	if query == "" {
		return dst
	}
	start := len(dst)
	for _, re := range e.Patterns {
		matches := re.FindAll(text)
		if len(matches) == 0 {
			continue
		}
		from, to, release := re.SubexpIndex("from"), re.SubexpIndex("to"), re.SubexpIndex("release")
		for _, m := range matches {
			var v string
			lo, hi := m[0], m[1]
			if release > 0 && m[2*release] >= 0 {
				v = ReleaseRange(strings.TrimSpace(query[m[2*release]:m[2*release+1]]))
			} else if from > 0 || to > 0 {
				v = rangeValue(query, m, from, to)
			} else {
				if len(m) >= 4 && m[2] >= 0 && m[3] > m[2] {
					lo, hi = m[2], m[3]
				}
				v = strings.TrimSpace(query[lo:hi])
			}
			if overlaps(taken, lo, hi) {
				continue
			}
			if v != "" && !e.Ignored(v) && !slices.Contains(dst[start:], v) {
				dst = append(dst, v)
			}
		}
	}
	return dst
}

func overlaps(spans []Span, lo, hi int) bool {
	for _, s := range spans {
		if lo < s.End && s.Start < hi {
			return true
		}
	}
	return false
}

// rangeValue joins the "from" and "to" groups of match m as a revision
// range: "from..to", "from.." when to did not match, "to" when from did not.
func rangeValue(query string, m []int, from, to int) string {
	group := func(i int) string {
		if i <= 0 || m[2*i] < 0 {
			return ""
		}
		return strings.TrimSpace(query[m[2*i]:m[2*i+1]])
	}
	f, t := group(from), group(to)
	switch {
	case f != "":
		return f + ".." + t
	default:
		return t
	}
}

// ReleaseRange is the range of commits release r brought: from the tag
// before it (sdk.RefBefore) to it, "before v1.2.0..v1.2.0", which
// grounding turns into tags: "v1.1.0..v1.2.0".
func ReleaseRange(r string) string { return sdk.RefBefore + r + ".." + r }

// ReleaseOf is the release a ReleaseRange names, as the question wrote it
// ("v1.2.0" of "before v1.2.0..v1.2.0"); any other value as it is.
func ReleaseOf(v string) string {
	if rest, ok := strings.CutPrefix(v, sdk.RefBefore); ok {
		if from, to, ok := strings.Cut(rest, ".."); ok && from == to {
			return to
		}
	}
	return v
}

// Ignored reports whether v is in the entity's Ignore list (any case).
func (e *Entity) Ignored(v string) bool {
	for _, x := range e.Ignore {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}
