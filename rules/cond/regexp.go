package cond

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Regexp is a regular expression compiled for questions: what it matches is
// what regexp matches, with less work. A literal prefilter rejects a text
// that lacks the literals every match contains; a pattern that is a few
// caseless strings between zero-width assertions ("(?i)\b(?:bugs?|issues?)\b")
// is matched by searching for those strings; a pattern whose matches all
// start with a few strings is tried only where they occur, and one whose
// matches all end with a few strings only up to the last of them. The
// shortcuts read an ASCII text; others go to regexp after the prefilter.
type Regexp struct {
	pattern string
	tree    *syntax.Regexp // parsed at load, to report a bad pattern there
	// The rest is prepared on first use, in two steps: the prefilter, then
	// the regexp and its shortcuts for the first text the prefilter lets
	// through. A question needs only the patterns whose literals it holds,
	// and compiling a regexp costs several times its prefilter.
	screened sync.Once
	simple   *syntax.Regexp // tree simplified, between the two steps
	filter   screen
	once     sync.Once
	// wordsOnly is set once prepared as a words pattern: its search looks
	// for the very literals of the prefilter, which is then skipped.
	wordsOnly atomic.Bool
	re        *regexp.Regexp
	// words is the pattern as caseless strings between assertions; nil
	// when it is not one.
	words *words
	// starts is where a match can start; nil when that cannot be told.
	starts *starts
	// ends is the strings every match ends with (then only assertions);
	// nil when there are none to tell.
	ends *ends
}

// words is a pattern that matches at i when the assertions before hold at
// i, one of set is at i in the folded text and the assertions after hold
// at its end.
type words struct {
	before, after syntax.EmptyOp
	set           []string // folded, in the order leftmost-first prefers them; ASCII
	firsts        *byteSet // the first bytes of set
	group         bool     // capture group 1 is the string (the only group)
}

// starts is a pattern whose matches start where the assertions before hold
// and one of set is in the folded text; anchored is the rest of the pattern
// matched from there.
type starts struct {
	before   syntax.EmptyOp
	set      []string // folded; ASCII
	firsts   *byteSet // the first bytes of set
	anchored *regexp.Regexp
}

// CompileRegexp compiles pattern (RE2 syntax, as regexp.Compile), failing
// as regexp.Compile does.
func CompileRegexp(pattern string) (*Regexp, error) {
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return &Regexp{pattern: pattern, tree: tree}, nil
}

// nothing matches nothing: the regexp of a pattern that parsed but did not
// compile, which regexp.Compile never does.
var nothing = regexp.MustCompile(`[^\x00-\x{10FFFF}]`)

// buildFilter builds the prefilter.
func (r *Regexp) buildFilter() {
	r.screened.Do(func() {
		r.simple = r.tree.Simplify()
		r.tree = nil
		r.filter = newPrefilter(r.simple).screen()
	})
}

// mayMatch reports whether the prefilter lets t through.
func (r *Regexp) mayMatch(t Text) bool {
	r.buildFilter()
	return r.filter == nil || r.filter.mayMatch(t.folded)
}

// prepare compiles the regexp and its shortcuts.
func (r *Regexp) prepare() {
	r.buildFilter()
	r.once.Do(func() {
		var err error
		if r.re, err = regexp.Compile(r.pattern); err != nil {
			r.re = nothing
		}
		tree := r.simple
		r.simple = nil
		if r.words = newWords(tree, r.re.NumSubexp()); r.words == nil {
			r.starts = newStarts(tree)
		}
		if r.words == nil && r.starts == nil {
			r.ends = newEnds(tree)
		}
		r.wordsOnly.Store(r.words != nil)
	})
}

// admits reports whether t may hold a match, running the prefilter
// unless r is a prepared words pattern and t is ASCII, and prepares r if
// so.
func (r *Regexp) admits(t Text) bool {
	if t.ascii && r.wordsOnly.Load() {
		return true
	}
	if !r.mayMatch(t) {
		return false
	}
	r.prepare()
	return true
}

// String returns the source text of the pattern.
func (r *Regexp) String() string { return r.pattern }

// SubexpIndex returns the index of the capture group named name, or -1.
func (r *Regexp) SubexpIndex(name string) int {
	r.prepare()
	return r.re.SubexpIndex(name)
}

// Text is a string with its case fold, computed once for every pattern run
// over it.
type Text struct {
	s, folded string
	ascii     bool
}

// String returns the text.
func (t Text) String() string { return t.s }

// NewText returns s ready for matching.
func NewText(s string) Text {
	return Text{s: s, folded: fold(s), ascii: isASCII(s)}
}

// MatchString reports whether s holds a match.
func (r *Regexp) MatchString(s string) bool { return r.Match(NewText(s)) }

// Match reports whether t holds a match.
func (r *Regexp) Match(t Text) bool {
	if !r.admits(t) {
		return false
	}
	switch {
	case t.ascii && r.words != nil:
		_, _, ok := r.words.find(t, 0)
		return ok
	case t.ascii && r.starts != nil:
		return r.starts.match(t)
	case t.ascii && r.ends != nil:
		end := r.ends.last(t)
		return end >= 0 && r.re.MatchString(t.s[:min(end+1, len(t.s))])
	}
	return r.re.MatchString(t.s)
}

// FindAll returns the successive non-overlapping matches in t, as
// regexp.FindAllStringSubmatchIndex(t, -1) does.
func (r *Regexp) FindAll(t Text) [][]int {
	if !r.admits(t) {
		return nil
	}
	switch {
	case t.ascii && r.words != nil:
		var all [][]int
		for at := 0; ; {
			lo, hi, ok := r.words.find(t, at)
			if !ok {
				return all
			}
			m := []int{lo, hi}
			if r.words.group {
				m = append(m, lo, hi)
			}
			all = append(all, m)
			at = hi
		}
	case t.ascii && r.starts != nil:
		return r.starts.findAll(t)
	case t.ascii && r.ends != nil:
		// No match reads past the last end but for the one byte an
		// assertion there looks at.
		end := r.ends.last(t)
		if end < 0 {
			return nil
		}
		return r.re.FindAllStringSubmatchIndex(t.s[:min(end+1, len(t.s))], -1)
	}
	return r.re.FindAllStringSubmatchIndex(t.s, -1)
}

// newWords reads tree as caseless strings between assertions; nil when it
// is not that, or it has a capture group other than one around them.
func newWords(tree *syntax.Regexp, groups int) *words {
	subs := []*syntax.Regexp{tree}
	if tree.Op == syntax.OpConcat {
		subs = tree.Sub
	}
	w := &words{}
	i := 0
	for ; i < len(subs) && assertion(subs[i]) != 0; i++ {
		w.before |= assertion(subs[i])
	}
	j := len(subs)
	for ; j > i && assertion(subs[j-1]) != 0; j-- {
		w.after |= assertion(subs[j-1])
	}
	if j == i {
		return nil
	}
	body := subs[i]
	if j > i+1 {
		body = &syntax.Regexp{Op: syntax.OpConcat, Sub: subs[i:j]}
	}
	w.group = body.Op == syntax.OpCapture
	if groups != 0 && (groups != 1 || !w.group) {
		return nil
	}
	set, ok := exactUpTo(body, caseless, maxWords)
	if !ok || slices.Contains(set, "") {
		return nil
	}
	w.set, w.firsts = ascii(set)
	return w
}

// maxWords bounds the strings of a words pattern: a search tries them
// only where a first byte of one is, which a long list of alternatives
// ("issues?|bugs?|…|releases?") does no more often than a short one.
const maxWords = 64

// maxStarts bounds the strings a starts pattern's matches begin with.
const maxStarts = 32

// find returns the leftmost match at or after at: at the least position
// where a string holds, the first string in preference order.
func (w *words) find(t Text, at int) (lo, hi int, ok bool) {
	for i := at; i < len(t.folded); i++ {
		k := w.firsts.index(t.folded[i:])
		if k < 0 {
			break
		}
		i += k
		if !holds(t.s, i, w.before) {
			continue
		}
		for _, s := range w.set {
			if strings.HasPrefix(t.folded[i:], s) && holds(t.s, i+len(s), w.after) {
				return i, i + len(s), true
			}
		}
	}
	return 0, 0, false
}

// newStarts finds where tree's matches start: at one of a few strings
// after its leading assertions; nil when they do not start so.
func newStarts(tree *syntax.Regexp) *starts {
	subs := []*syntax.Regexp{tree}
	if tree.Op == syntax.OpConcat {
		subs = tree.Sub
	}
	s := &starts{}
	i := 0
	for ; i < len(subs) && assertion(subs[i]) != 0; i++ {
		s.before |= assertion(subs[i])
	}
	set, ok := prefixes(subs[i:])
	if !ok {
		return nil
	}
	// The rest is matched from the start of a slice of the text. Every
	// match of it consumes one of set before any assertion in it, so no
	// assertion looks at the slice's start, where the text before it is
	// cut off: they see what they would in the whole text.
	rest := &syntax.Regexp{Op: syntax.OpConcat, Flags: tree.Flags,
		Sub: append([]*syntax.Regexp{{Op: syntax.OpBeginText}}, subs[i:]...)}
	anchored, err := regexp.Compile(rest.String())
	if err != nil {
		return nil
	}
	s.set, s.firsts = ascii(set)
	s.anchored = anchored
	return s
}

// prefixes returns strings, folded and none empty, one of which every
// match of the concatenation subs starts with (loosely: a case-sensitive
// pattern's match starts with its fold in the folded text), before any
// assertion is met; false when it cannot tell or they are many.
func prefixes(subs []*syntax.Regexp) ([]string, bool) {
	if len(subs) == 0 {
		return nil, false
	}
	first := subs[0]
	if set, ok := exactUpTo(first, unasserted, maxStarts); ok {
		if !slices.Contains(set, "") {
			return set, true
		}
		// first may match nothing: the match then starts as the rest's.
		rest, ok := prefixes(subs[1:])
		if !ok {
			return nil, false
		}
		return union(slices.DeleteFunc(set, func(s string) bool { return s == "" }), rest)
	}
	switch first.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return prefixes(first.Sub[:1])
	case syntax.OpRepeat:
		if first.Min >= 1 {
			return prefixes(first.Sub[:1])
		}
		return optional(first, subs[1:])
	case syntax.OpStar, syntax.OpQuest:
		return optional(first, subs[1:])
	case syntax.OpConcat:
		return prefixes(first.Sub)
	case syntax.OpAlternate:
		var all []string
		for _, sub := range first.Sub {
			set, ok := prefixes([]*syntax.Regexp{sub})
			if !ok {
				return nil, false
			}
			if all, ok = union(all, set); !ok {
				return nil, false
			}
		}
		return all, true
	}
	return nil, false
}

// optional is prefixes of opt, which may match nothing, then rest: a
// match starts as one of opt's (that never matches nothing, or prefixes
// fails) or as one of rest's.
func optional(opt *syntax.Regexp, rest []*syntax.Regexp) ([]string, bool) {
	a, ok := prefixes(opt.Sub[:1])
	if !ok {
		return nil, false
	}
	b, ok := prefixes(rest)
	if !ok {
		return nil, false
	}
	return union(a, b)
}

// union is a with the strings of b it lacks, when they are few.
func union(a, b []string) ([]string, bool) {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a, len(a) <= maxStarts
}

// findAll runs the anchored rest wherever a match can start.
func (s *starts) findAll(t Text) [][]int {
	var all [][]int
	for at := 0; at < len(t.s); {
		i := s.next(t, at)
		if i < 0 {
			break
		}
		m := s.anchored.FindStringSubmatchIndex(t.s[i:])
		if m == nil {
			at = i + 1
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		all = append(all, m)
		at = m[1]
	}
	return all
}

// match reports whether the anchored rest matches where a match can start.
func (s *starts) match(t Text) bool {
	for at := 0; at < len(t.s); at++ {
		if at = s.next(t, at); at < 0 {
			return false
		}
		if s.anchored.MatchString(t.s[at:]) {
			return true
		}
	}
	return false
}

// next is the least position at or after at where a match can start.
func (s *starts) next(t Text, at int) int {
	for i := at; i < len(t.folded); i++ {
		k := s.firsts.index(t.folded[i:])
		if k < 0 {
			break
		}
		i += k
		if holds(t.s, i, s.before) && slices.ContainsFunc(s.set, func(lit string) bool { return strings.HasPrefix(t.folded[i:], lit) }) {
			return i
		}
	}
	return -1
}

// ascii returns the strings of set an ASCII text can hold, and their
// first bytes.
func ascii(set []string) ([]string, *byteSet) {
	var out []string
	firsts := &byteSet{}
	for _, s := range set {
		if isASCII(s) {
			out = append(out, s)
			firsts[s[0]] = true
		}
	}
	return out, firsts
}

// byteSet is a set of bytes.
type byteSet [256]bool

// index returns the index of the first byte of s in the set, or -1.
func (b *byteSet) index(s string) int {
	for i := 0; i < len(s); i++ {
		if b[s[i]] {
			return i
		}
	}
	return -1
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ends is the strings that end every match of a pattern, each followed
// by zero-width assertions only.
type ends struct {
	set []string // folded; ASCII
}

// newEnds finds the strings tree's matches end with; nil when they do
// not end so.
func newEnds(tree *syntax.Regexp) *ends {
	if tree.Op != syntax.OpConcat {
		return nil
	}
	j := len(tree.Sub)
	for j > 0 && assertion(tree.Sub[j-1]) != 0 {
		j--
	}
	if j == 0 {
		return nil
	}
	set, ok := exact(tree.Sub[j-1], unasserted)
	if !ok || slices.Contains(set, "") {
		return nil
	}
	set, _ = ascii(set)
	return &ends{set: set}
}

// last is the greatest end of one of the strings in t; -1 when t holds
// none of them.
func (e *ends) last(t Text) int {
	end := -1
	for _, s := range e.set {
		if i := strings.LastIndex(t.folded, s); i >= 0 {
			end = max(end, i+len(s))
		}
	}
	return end
}

// assertion is the zero-width assertion re is; 0 when it is not one.
func assertion(re *syntax.Regexp) syntax.EmptyOp {
	switch re.Op {
	case syntax.OpWordBoundary:
		return syntax.EmptyWordBoundary
	case syntax.OpNoWordBoundary:
		return syntax.EmptyNoWordBoundary
	case syntax.OpBeginLine:
		return syntax.EmptyBeginLine
	case syntax.OpEndLine:
		return syntax.EmptyEndLine
	case syntax.OpBeginText:
		return syntax.EmptyBeginText
	case syntax.OpEndText:
		return syntax.EmptyEndText
	}
	return 0
}

// holds reports whether the assertions hold at byte i of the ASCII text s.
func holds(s string, i int, ops syntax.EmptyOp) bool {
	if ops == 0 {
		return true
	}
	before, after := rune(-1), rune(-1)
	if i > 0 {
		before = rune(s[i-1])
	}
	if i < len(s) {
		after = rune(s[i])
	}
	return syntax.EmptyOpContext(before, after)&ops == ops
}
