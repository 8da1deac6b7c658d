package cond

import (
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/vm/runtime"
)

// regexps compiles each pattern of one rules load once, for conditions and
// entities alike. It is safe for concurrent use.
type regexps struct {
	mu      sync.Mutex
	entries map[string]*regexpEntry
}

type regexpEntry struct {
	once sync.Once
	re   *Regexp
	err  error
}

func (rs *regexps) get(pattern string) (*Regexp, error) {
	rs.mu.Lock()
	e := rs.entries[pattern]
	if e == nil {
		e = &regexpEntry{}
		rs.entries[pattern] = e
	}
	rs.mu.Unlock()
	e.once.Do(func() { e.re, e.err = CompileRegexp(pattern) })
	return e.re, e.err
}

// Regexp returns pattern compiled (see CompileRegexp), once per Compiler:
// the conditions and entities that repeat a pattern share it. It is safe
// for concurrent use.
func (x *Compiler) Regexp(pattern string) (*Regexp, error) { return x.regexps.get(pattern) }

// matchesConst names the function a matches with a constant pattern
// compiles to: it calls the load's shared Regexp rather than expr's own
// regexp, compiled anew by expr's checker and again by its compiler.
const matchesConst = "$matches"

var (
	regexpType      = reflect.TypeFor[*Regexp]()
	matchesFuncType = reflect.TypeFor[func(any, *Regexp, any) bool]()
)

// installMatches declares the function constant matches compile to.
func installMatches(c *conf.Config) {
	c.Functions[matchesConst] = &builtin.Function{Name: matchesConst, Func: callMatches, Types: []reflect.Type{matchesFuncType}}
}

// callMatches is expr's OpMatchesConst over a Regexp, given the
// environment: the question of a QueryEnv is folded once for all patterns.
func callMatches(args ...any) (any, error) {
	re := args[1].(*Regexp)
	switch s := args[0].(type) {
	case string:
		if env, ok := args[2].(*QueryEnv); ok && env.Query == s {
			return env.match(re), nil
		}
		return re.MatchString(s), nil
	case []byte:
		re.prepare()
		return re.re.Match(s), nil
	}
	if runtime.IsNil(args[0]) {
		return false, nil
	}
	return nil, fmt.Errorf("interface conversion: interface {} is %T, not []uint8", args[0])
}

// match reports whether re matches the question, folded once when the
// environment was built by NewQueryEnv.
func (q *QueryEnv) match(re *Regexp) bool {
	if q.text.s == q.Query {
		return re.Match(q.text)
	}
	return re.MatchString(q.Query)
}

// queryMatch returns the Regexp of a condition that is only a constant
// matches of the question (query matches '…'): it needs no VM.
func queryMatch(root ast.Node, found map[*ast.BinaryNode]constMatch) *Regexp {
	b, ok := root.(*ast.BinaryNode)
	if !ok {
		return nil
	}
	if id, ok := b.Left.(*ast.IdentifierNode); !ok || id.Value != "query" {
		return nil
	}
	return found[b].re
}

// constMatch is a matches whose pattern is a constant, compiled.
type constMatch struct {
	re      *Regexp
	pattern *ast.StringNode
}

// hidePatterns replaces the constant pattern of every matches in tree by
// a constant of the same type that expr's checker does not compile, and
// returns the patterns, compiled once per load. A pattern that does not
// compile is left for the checker to report.
func hidePatterns(tree *ast.Node, rs *regexps) map[*ast.BinaryNode]constMatch {
	v := &patternHider{regexps: rs}
	ast.Walk(tree, v)
	return v.found
}

type patternHider struct {
	regexps *regexps
	found   map[*ast.BinaryNode]constMatch
}

func (h *patternHider) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok || b.Operator != "matches" {
		return
	}
	lit, ok := b.Right.(*ast.StringNode)
	if !ok {
		return
	}
	re, err := h.regexps.get(lit.Value)
	if err != nil {
		return
	}
	if h.found == nil {
		h.found = map[*ast.BinaryNode]constMatch{}
	}
	h.found[b] = constMatch{re: re, pattern: lit}
	ast.Patch(&b.Right, &ast.ConstantNode{Value: lit.Value})
}

// swap is a node of the tree replaced for compiling, to put back after.
type swap struct {
	slot *ast.Node
	was  ast.Node
}

// callRegexps replaces each checked matches of found by a call of
// matchesConst with its Regexp, and returns what to put back once the
// tree is compiled. A matches whose left side is not a string or an
// interface (a pointer expr would dereference) gets its pattern back and
// stays expr's.
func callRegexps(tree *ast.Node, found map[*ast.BinaryNode]constMatch) []swap {
	v := &matchesCaller{found: found}
	ast.Walk(tree, v)
	return v.swaps
}

type matchesCaller struct {
	found map[*ast.BinaryNode]constMatch
	swaps []swap
}

func (c *matchesCaller) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok {
		return
	}
	m, ok := c.found[b]
	if !ok {
		return
	}
	if k := b.Left.Type().Kind(); k != reflect.String && k != reflect.Interface {
		b.Right = m.pattern
		return
	}
	callee := &ast.IdentifierNode{Value: matchesConst}
	callee.SetType(matchesFuncType)
	re := &ast.ConstantNode{Value: m.re}
	re.SetType(regexpType)
	env := &ast.IdentifierNode{Value: "$env"}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{b.Left, re, env}}
	call.SetNature(*b.Nature())
	call.SetLocation(b.Location())
	c.swaps = append(c.swaps, swap{node, b})
	*node = call
}

// putBack undoes the swaps and gives every matches its pattern back, so
// the compiled condition's tree is what its source says.
func putBack(swaps []swap, found map[*ast.BinaryNode]constMatch) {
	for _, s := range slices.Backward(swaps) {
		*s.slot = s.was
	}
	for b, m := range found {
		b.Right = m.pattern
	}
}
