package git

import (
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// query is a FetchRequest checked and normalised for the walk.
type query struct {
	since, until time.Time
	paths        [][]string // repository-relative, split into components
	authors      []string   // lower case, matched against "name <email>"
	grep         []string   // lower case, matched against the message
	ref          string     // the walk's HEAD: the configured ref or the ref filter
	revisions    []revRange // empty: the history of ref
	stats        bool
	limit        int
}

// newQuery checks req against what the source understands. Unknown filter
// keys are ignored (the engine sends every retrieval's filters); malformed
// values of known keys are bad requests naming the key and value.
func newQuery(req sdk.FetchRequest, cfg config) (query, error) {
	if req.Kind != "" && req.Kind != sdk.KindCommit {
		return query{}, sdk.Errorf(sdk.KindBadRequest, "git: the git source returns %s records, not %q", sdk.KindCommit, req.Kind)
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && !req.Since.Before(req.Until) {
		return query{}, sdk.Errorf(sdk.KindBadRequest, "git: since %s is not before until %s", req.Since.Format(time.RFC3339), req.Until.Format(time.RFC3339))
	}
	q := query{since: req.Since, until: req.Until, ref: cfg.Ref, stats: *cfg.Stats, limit: req.Limit}
	f := req.Filters
	paths, err := parsePaths(f)
	if err != nil {
		return query{}, err
	}
	q.paths = paths
	for _, key := range []string{"author", "authors"} {
		for _, v := range f[key] {
			if v = strings.TrimSpace(v); v != "" {
				q.authors = append(q.authors, strings.ToLower(v))
			}
		}
	}
	for _, key := range []string{"topics", "query"} {
		for _, v := range f[key] {
			if v = strings.TrimSpace(v); v != "" {
				q.grep = append(q.grep, strings.ToLower(v))
			}
		}
	}
	switch refs := f["ref"]; len(refs) {
	case 0:
	case 1:
		if strings.TrimSpace(refs[0]) == "" {
			return query{}, sdk.Errorf(sdk.KindBadRequest, "git: filter ref is empty")
		}
		q.ref = strings.TrimSpace(refs[0])
	default:
		return query{}, sdk.Errorf(sdk.KindBadRequest, "git: filter ref takes one value, got %q", refs)
	}
	if q.revisions, err = parseRevisions(f["revisions"]); err != nil {
		return query{}, err
	}
	switch vs := f["with_stats"]; len(vs) {
	case 0:
	case 1:
		b, err := strconv.ParseBool(strings.TrimSpace(vs[0]))
		if err != nil {
			return query{}, sdk.Errorf(sdk.KindBadRequest, "git: filter with_stats=%q: want true or false", vs[0])
		}
		q.stats = b
	default:
		return query{}, sdk.Errorf(sdk.KindBadRequest, "git: filter with_stats takes one value, got %q", vs)
	}
	return q, nil
}

// parsePaths reads the path and paths filters. A path naming the whole
// repository (".") turns path filtering off.
func parsePaths(f map[string][]string) ([][]string, error) {
	var paths [][]string
	whole := false
	for _, key := range []string{"path", "paths"} {
		for _, v := range f[key] {
			parts, err := splitPath(v)
			if err != nil {
				return nil, sdk.Errorf(sdk.KindBadRequest, "git: filter %s=%q: %v", key, v, err)
			}
			if parts == nil {
				whole = true
				continue
			}
			paths = append(paths, parts)
		}
	}
	if whole {
		return nil, nil
	}
	return paths, nil
}

// splitPath turns a repository-relative path into its components; nil
// means the repository root.
func splitPath(p string) ([]string, error) {
	p = strings.TrimSpace(strings.ReplaceAll(p, `\`, "/"))
	if p == "" {
		return nil, errorString("empty path")
	}
	if strings.HasPrefix(p, "/") {
		return nil, errorString("want a path relative to the repository root")
	}
	clean := path.Clean(p)
	if clean == "." {
		return nil, nil
	}
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return nil, errorString("path leaves the repository")
	}
	return strings.Split(clean, "/"), nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// matchesAuthor reports whether "name <email>" contains any wanted
// author, as `git log -i --author` matches the author line.
func (q query) matchesAuthor(name, email string) bool {
	if len(q.authors) == 0 {
		return true
	}
	ident := strings.ToLower(name + " <" + email + ">")
	for _, a := range q.authors {
		if strings.Contains(ident, a) {
			return true
		}
	}
	return false
}

// matchesMessage reports whether the message contains any wanted text.
func (q query) matchesMessage(msg string) bool {
	if len(q.grep) == 0 {
		return true
	}
	msg = strings.ToLower(msg)
	for _, g := range q.grep {
		if strings.Contains(msg, g) {
			return true
		}
	}
	return false
}
