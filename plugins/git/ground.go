package git

import (
	"bytes"
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nous-dev/nous/sdk"
)

// Bounds of a grounding answer.
const (
	maxPathMatches = 16
	maxNoteIDs     = 5
	maxPeople      = 16 // people an author term is grounded to
	maxTerms       = 256
)

var _ sdk.Grounder = (*Source)(nil)

// Ground says which of a question's terms the repository knows: paths in
// the configured ref's tree, authors in its history, tags and branches,
// and the repository's own name. Labels and states are never known.
// Groundings run in parallel, each on a repository handle of its own.
func (s *Source) Ground(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	c, end, err := s.begin(ctx)
	if err != nil {
		return sdk.GroundResponse{}, err
	}
	defer end()
	return c.ground(ctx, req)
}

// ground is Ground on the call's handle.
func (s *call) ground(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	if len(req.Terms) > maxTerms {
		return sdk.GroundResponse{}, sdk.Errorf(sdk.KindBadRequest, "git: ground request has %d terms; at most %d are supported", len(req.Terms), maxTerms)
	}
	resp := sdk.GroundResponse{Filters: append([]string(nil), filterKeys...)}
	resp.Coverage.Name = s.repoName()
	if s.remote != nil {
		r := *s.remote // the caller owns the response
		resp.Coverage.Remote = &r
	}
	tipHash, _, err := s.resolve(s.cfg.Ref)
	empty := errors.Is(err, errNoCommits)
	if err != nil && !empty {
		return sdk.GroundResponse{}, err
	}
	var hist *history
	var tr *tree
	if !empty {
		tip, err := s.commit(tipHash)
		if err != nil {
			return sdk.GroundResponse{}, fmt.Errorf("git: reading commit %s: %w", tipHash, err)
		}
		shallow, err := s.shallowSet()
		if err != nil {
			return sdk.GroundResponse{}, err
		}
		boundary, err := s.newestBoundary(shallow)
		if err != nil {
			return sdk.GroundResponse{}, err
		}
		resp.Coverage.Latest = tip.Committer.When
		if boundary != nil {
			// Older commits than the newest boundary may be present through
			// other boundaries, but only history after it is complete.
			resp.Coverage.Truncated = truncatedNote(boundary)
			resp.Coverage.Earliest = boundary.Committer.When
		}
		if slices.ContainsFunc(req.Terms, isKind(sdk.TermAuthor)) {
			if hist, err = s.history(ctx, tip, shallow); err != nil {
				return sdk.GroundResponse{}, err
			}
			if boundary == nil && hist.cut == "" {
				resp.Coverage.Earliest = hist.earliest
			}
		}
		if slices.ContainsFunc(req.Terms, isKind(sdk.TermPath)) {
			if tr, err = s.tree(tip.TreeHash); err != nil {
				return sdk.GroundResponse{}, err
			}
		}
	}
	for _, term := range req.Terms {
		g := sdk.GroundedTerm{Kind: term.Kind, Value: term.Value}
		v := strings.TrimSpace(term.Value)
		switch {
		case v == "":
			g.Note = "empty term"
		case term.Kind == sdk.TermProject:
			s.groundProject(&g, v)
		case term.Kind == sdk.TermLabel || term.Kind == sdk.TermState:
			g.Note = "a git repository has no " + term.Kind + "s"
		case term.Kind != sdk.TermPath && term.Kind != sdk.TermAuthor && term.Kind != sdk.TermRef:
			g.Note = fmt.Sprintf("unknown term kind %q", term.Kind)
		case empty:
			g.Note = "the repository has no commits yet"
		case term.Kind == sdk.TermPath:
			groundPath(&g, tr, v)
		case term.Kind == sdk.TermAuthor:
			groundAuthor(&g, hist, v, req.Since, req.Until)
		case term.Kind == sdk.TermRef:
			s.groundRef(&g, v)
		}
		resp.Terms = append(resp.Terms, g)
	}
	return resp, nil
}

func isKind(kind string) func(sdk.Term) bool {
	return func(t sdk.Term) bool { return t.Kind == kind && strings.TrimSpace(t.Value) != "" }
}

// history returns the author index of tip, read on the first author term
// and kept until the tip or the shallow clone's boundaries move (a fetch
// that deepens the clone adds history behind the same tip) or the source
// is configured again: with one `git log` when git is installed, else (or
// when git fails) with go-git.
func (s *call) history(ctx context.Context, tip *object.Commit, shallow map[plumbing.Hash]bool) (*history, error) {
	bounds := boundariesKey(shallow)
	s.cacheMu.Lock()
	cached := s.hist
	s.cacheMu.Unlock()
	if cached != nil && cached.tip == tip.Hash && cached.boundaries == bounds {
		return cached, nil
	}
	var hist *history
	err := errNoGit
	if s.gitBin != "" && s.gitDir != nil {
		hist, err = readHistoryGit(ctx, s.gitBin, s.gitDir.Root(), s.repo.Storer, tip.Hash)
	}
	if err != nil {
		if hist, err = readHistory(ctx, newWalker(s.commit, shallow), tip); err != nil {
			return nil, err
		}
	}
	hist.boundaries = bounds
	s.cacheMu.Lock()
	s.hist = hist
	s.cacheMu.Unlock()
	return hist, nil
}

// boundariesKey names a shallow clone's set of boundary commits: the
// SHA-1 of their sorted names, zero for a complete repository.
func boundariesKey(shallow map[plumbing.Hash]bool) plumbing.Hash {
	if len(shallow) == 0 {
		return plumbing.ZeroHash
	}
	names := slices.SortedFunc(maps.Keys(shallow), func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
	h := sha1.New()
	for _, n := range names {
		h.Write(n[:])
	}
	var key plumbing.Hash
	copy(key[:], h.Sum(nil))
	return key
}

// errNoGit means the git executable cannot read the repository.
var errNoGit = errors.New("git is not installed or the repository is not a directory")

// tree returns the listing of the tree root, read on the first path term
// and kept until the tip's tree changes or the source is configured again.
func (s *call) tree(root plumbing.Hash) (*tree, error) {
	s.cacheMu.Lock()
	cached := s.paths
	s.cacheMu.Unlock()
	if cached != nil && cached.root == root {
		return cached, nil
	}
	tr, err := readTree(s.repo.Storer, root)
	if err != nil {
		return nil, err
	}
	s.cacheMu.Lock()
	s.paths = tr
	s.cacheMu.Unlock()
	return tr, nil
}

// newestBoundary is the newest of a shallow clone's boundary commits (its
// shallow list): history is complete since it. Nil when the clone is
// complete.
func (s *call) newestBoundary(shallow map[plumbing.Hash]bool) (*object.Commit, error) {
	var newest *object.Commit
	for h := range shallow {
		c, err := s.commit(h)
		if err != nil {
			return nil, fmt.Errorf("git: reading shallow boundary %s: %w", h, err)
		}
		if newest == nil || c.Committer.When.After(newest.Committer.When) ||
			(c.Committer.When.Equal(newest.Committer.When) && c.Hash.String() > newest.Hash.String()) {
			newest = c
		}
	}
	return newest, nil
}

// truncatedNote says from where a shallow clone's history is complete:
// its newest boundary. The note goes in parentheses in a caveat, so it
// holds none.
func truncatedNote(boundary *object.Commit) string {
	return fmt.Sprintf("shallow clone: complete only since its newest boundary, %s of %s", boundary.Hash.String()[:minAbbrev], boundary.Committer.When.UTC().Format("2006-01-02"))
}

// groundPath knows an exact repository path, or a bare name: a file or
// directory of that name in exactly that case, else a top-level entry in
// any case. A name in another case deep in the tree is not what the
// question meant ("git" in git/git is not perl/Git).
func groundPath(g *sdk.GroundedTerm, tr *tree, v string) {
	parts, err := splitPath(v)
	if err != nil {
		g.Note = err.Error()
		return
	}
	if parts == nil {
		g.Known, g.Canonical, g.Note = true, []string{"."}, "the repository root"
		return
	}
	clean := strings.Join(parts, "/")
	if p, ok := tr.exact(clean); ok {
		g.Known, g.Canonical = true, []string{p}
		return
	}
	if len(parts) > 1 {
		g.Note = fmt.Sprintf("no file or directory %q in the tree", clean)
		return
	}
	how := "matched by name"
	matches := tr.byBase(clean)
	if len(matches) == 0 {
		how, matches = "matched by name in another case", tr.topFolded(clean)
	}
	switch {
	case len(matches) == 0:
		g.Note = fmt.Sprintf("no file or directory named %q in the tree", clean)
		if tr.cut != "" {
			g.Note += " (" + tr.cut + ")"
		}
		return
	case len(matches) > maxPathMatches:
		g.Note = fmt.Sprintf("%s: %d paths, the first %d listed", how, len(matches), maxPathMatches)
		matches = matches[:maxPathMatches]
	default:
		g.Note = how
	}
	g.Known, g.Canonical = true, matches
}

// groundAuthor knows a value naming some author: an e-mail address or a
// full name exactly, else whole words, else any part of "Name <email>"
// (authors). Identities of one person are one candidate. In a period, the
// people with commits in it are the candidates, most commits first. One
// person is the value as asked when the retrieval's match finds the same
// commits, else their name; several are their names, so the question can
// be asked back.
func groundAuthor(g *sdk.GroundedTerm, hist *history, v string, since, until time.Time) {
	ids, _ := hist.authors(v)
	if len(ids) == 0 {
		g.Note = fmt.Sprintf("no author matches %q in %d commits", v, hist.commits)
		if hist.cut != "" {
			g.Note += " (" + hist.cut + ")"
		}
		return
	}
	// A cut index is whole for a period within its complete part.
	g.Known, g.Partial = true, hist.cut != "" && (since.IsZero() || hist.completeSince.IsZero() || since.Before(hist.completeSince))
	people := hist.people(ids, hist.counts)
	in, narrowed := "", false
	if !since.IsZero() || !until.IsZero() {
		in = " in " + periodText(since, until)
		active := slices.DeleteFunc(hist.people(ids, hist.countsIn(since, until)), func(p person) bool { return p.commits == 0 })
		switch {
		case len(active) == 0 && len(people) == 1:
			// Their nearest activity answers, as it does for anyone.
		case len(active) == 0:
			// Whichever of them was meant, the period holds none of their
			// commits: nothing to ask back. The value as asked finds the
			// nearest activity of any of them.
			g.Canonical = []string{v}
			g.Note = fmt.Sprintf("no one matching %q has commits in %s (overall: %s)", v, periodText(since, until), countList(people))
			if g.Partial {
				g.Note += "; the author index may be incomplete (" + hist.cut + ")"
			}
			return
		case len(active) < len(people):
			people, narrowed = active, true
		default:
			people = active
		}
	}
	if len(people) > 1 {
		g.Note = fmt.Sprintf("by commits%s: %s", in, countList(people))
		for _, p := range people[:min(len(people), maxPeople)] {
			g.Canonical = append(g.Canonical, p.name)
		}
		if g.Partial {
			g.Note += "; the list may be incomplete (" + hist.cut + ", complete since " + hist.completeSince.Format("2006-01-02") + ")"
		}
		return
	}
	p := people[0]
	if !narrowed && hist.namesOnly(v, p.index) {
		// The retrieval matches the value as `git log -i --author` does:
		// this person's commits only, all of them.
		g.Canonical = []string{v}
		g.Note = "matches " + p.name
		return
	}
	g.Canonical = []string{hist.filterFor(p)}
	what := "author matching " + strconv.Quote(v)
	if narrowed {
		what = fmt.Sprintf("%s with commits%s (%d)", v, in, p.commits)
	}
	g.Note = fmt.Sprintf("%q read as %s, the only %s", v, p.name, what)
	if g.Partial {
		g.Note += "; the author index may be incomplete (" + hist.cut + ")"
	}
}

// countList is "A 250, B 51, C 3 and 2 more": the first people and their
// counts.
func countList(people []person) string {
	shown := people[:min(len(people), maxNoteIDs)]
	parts := make([]string, len(shown))
	for i, p := range shown {
		parts[i] = fmt.Sprintf("%s %d", p.name, p.commits)
	}
	out := strings.Join(parts, ", ")
	if len(people) > len(shown) {
		out += fmt.Sprintf(" and %d more", len(people)-len(shown))
	}
	return out
}

// periodText names a period as a person would: "2024", "July 2026", else
// its dates ("2024-03-01 – 2024-05-31", "since 2024-03-01").
func periodText(since, until time.Time) string {
	day := "2006-01-02"
	switch {
	case since.IsZero():
		return "before " + until.Format(day)
	case until.IsZero():
		return "since " + since.Format(day)
	case since.YearDay() == 1 && isMidnight(since) && until.Equal(since.AddDate(1, 0, 0)):
		return since.Format("2006")
	case since.Day() == 1 && isMidnight(since) && until.Equal(since.AddDate(0, 1, 0)):
		return since.Format("January 2006")
	}
	return since.Format(day) + " – " + until.Add(-time.Nanosecond).Format(day)
}

func isMidnight(t time.Time) bool { return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 }

// groundRef knows tags (peeled to their commit) and local and
// remote-tracking branches; "1.17.0" finds tag "v1.17.0" when only one
// tag fits.
func (s *call) groundRef(g *sdk.GroundedTerm, v string) {
	if ref, ok := strings.CutPrefix(v, sdk.RefBefore); ok {
		s.groundTagBefore(g, v, ref)
		return
	}
	if latestRelease().MatchString(v) {
		s.groundLatestTag(g, v)
		return
	}
	var candidates []plumbing.ReferenceName
	for _, name := range []plumbing.ReferenceName{
		plumbing.NewTagReferenceName(v),
		plumbing.NewBranchReferenceName(v),
		plumbing.ReferenceName("refs/remotes/" + v),
	} {
		if _, err := s.repo.Reference(name, false); err == nil {
			candidates = append(candidates, name)
			break
		}
	}
	bare := strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V")
	// "1.17.0" is v1.17.0; "v1.3" is v1.3.0 when no tag is named v1.3.
	for _, names := range [][]string{{"v" + v, bare}, twoPartVersion(bare)} {
		if len(candidates) > 0 {
			break
		}
		var alt []plumbing.ReferenceName
		for _, name := range names {
			if name == v {
				continue
			}
			ref := plumbing.NewTagReferenceName(name)
			if _, err := s.repo.Reference(ref, false); err == nil {
				alt = append(alt, ref)
			}
		}
		if len(alt) > 1 {
			g.Note = fmt.Sprintf("ambiguous: tags %s and %s both fit", alt[0].Short(), alt[1].Short())
			return
		}
		candidates = alt
	}
	if len(candidates) == 0 {
		g.Note = fmt.Sprintf("no tag or branch %q", v)
		if latest := s.latestTags(3); len(latest) > 0 {
			g.Note += " (the greatest tags: " + strings.Join(latest, ", ") + ")"
		}
		return
	}
	name := candidates[0]
	h, err := s.repo.ResolveRevision(plumbing.Revision(name.String()))
	if err != nil {
		g.Note = fmt.Sprintf("%s does not resolve: %v", name.Short(), err)
		return
	}
	c, err := object.GetCommit(s.repo.Storer, *h)
	if err != nil {
		g.Note = fmt.Sprintf("%s names no commit", name.Short())
		return
	}
	g.Known, g.Canonical, g.ID, g.Time = true, []string{name.Short()}, c.Hash.String(), c.Committer.When
	if name.Short() != v {
		g.Note = "matched tag " + name.Short()
	}
}

// groundProject knows the repository's directory name and its origin's
// path ("hashicorp/hcl") or last component, in any case.
func (s *call) groundProject(g *sdk.GroundedTerm, v string) {
	dir := s.dirName()
	var origin string
	if s.remote != nil {
		origin = s.remote.Path
	}
	for _, name := range []string{origin, path2Base(origin), dir} {
		if name != "" && strings.EqualFold(name, v) {
			g.Known, g.Canonical = true, []string{s.repoName()}
			return
		}
	}
	g.Note = fmt.Sprintf("the repository is %s", s.repoName())
}

// repoName is the origin's path when there is one, else the directory name.
func (s *call) repoName() string {
	if s.remote != nil {
		return s.remote.Path
	}
	return s.dirName()
}

// dirName is the base name of the work tree, or of a bare repository
// without its ".git" suffix.
func (s *call) dirName() string {
	if wt, err := s.repo.Worktree(); err == nil {
		return filepath.Base(wt.Filesystem.Root())
	}
	if s.gitDir != nil {
		root := s.gitDir.Root()
		if filepath.Base(root) == ".git" {
			return filepath.Base(filepath.Dir(root))
		}
		return strings.TrimSuffix(filepath.Base(root), ".git")
	}
	return filepath.Base(s.cfg.Path)
}

func path2Base(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// twoPartVersion is the tag names a two-part version ("1.3") stands for
// when no tag has that name: its .0 release, "v1.3.0" or "1.3.0".
func twoPartVersion(bare string) []string {
	major, minor, ok := strings.Cut(bare, ".")
	if !ok || !allDigits(major) || !allDigits(minor) {
		return nil
	}
	return []string{"v" + bare + ".0", bare + ".0"}
}

func allDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}
