package git

import (
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// maxRevisions bounds the revisions filter: each range is a bit in the
// walk's marks.
const maxRevisions = 16

// revRange is one value of the revisions filter: the history of tip
// without the history of exclude. An empty tip is the walk's HEAD (the
// configured ref); an empty exclude excludes nothing.
type revRange struct {
	exclude, tip string
}

// parseRevisions reads the revisions filter: "A..B", "A.." (A..HEAD),
// "..B" (HEAD..B) or "A". Several values are a union.
func parseRevisions(values []string) ([]revRange, error) {
	var out []revRange
	for _, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		r, err := parseRevision(v)
		if err != nil {
			return nil, sdk.Errorf(sdk.KindBadRequest, "git: filter revisions=%q: %v", v, err)
		}
		out = append(out, r)
	}
	if len(out) > maxRevisions {
		return nil, sdk.Errorf(sdk.KindBadRequest, "git: filter revisions has %d ranges; at most %d are supported", len(out), maxRevisions)
	}
	return out, nil
}

func parseRevision(v string) (revRange, error) {
	if strings.Contains(v, "...") {
		return revRange{}, errorString("symmetric differences (A...B) are not supported; want A..B, A.. or A")
	}
	if strings.ContainsAny(v, " \t\n^") {
		return revRange{}, errorString("want one range: A..B, A.. or A")
	}
	a, b, isRange := strings.Cut(v, "..")
	if !isRange {
		return revRange{tip: v}, nil
	}
	if a == "" && b == "" {
		return revRange{}, errorString("a range needs at least one end: A..B, A.. or ..B")
	}
	if strings.Contains(b, "..") {
		return revRange{}, errorString("want one range: A..B, A.. or A")
	}
	if a == "" {
		a = "HEAD"
	}
	return revRange{exclude: a, tip: b}, nil
}
