package cond

import (
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/vm"
	"github.com/expr-lang/expr/vm/runtime"
)

// LimitError is an evaluation of a condition stopped by one of its limits.
//
// expr's memory budget counts the arrays and loop scopes a program creates,
// so it bounds how many iterations an evaluation runs; it does not count
// the bytes of strings or the results of builtins, which is how a constant
// such as len(reduce(1..28, #acc + #acc, 'abcdefghijklmnop')) asked for 4
// GiB. Limits.MaxBytes closes that gap: every string concatenation and
// every builtin that can build a larger value is counted against it, before
// it builds when that can be told, and Limits.Timeout bounds the wall time
// of a condition that loops.
type LimitError struct{ msg string }

func (e *LimitError) Error() string { return e.msg }

func tooMuch(bytes, limit int) *LimitError {
	return &LimitError{fmt.Sprintf("building %d bytes exceeds the limit of %d bytes for one condition evaluation", bytes, limit)}
}

func tooLong(limit time.Duration) *LimitError {
	return &LimitError{fmt.Sprintf("the evaluation takes longer than the limit of %v for one condition evaluation", limit)}
}

// Names of the functions the + of two strings compiles to.
const (
	concatStrings = "$concat" // both sides are strings
	concatAny     = "$add"    // a side's type is not known until run time
)

// growing are expr's builtins whose result can be larger than their
// arguments (or, for split and fromJSON, hold many more values); they are
// replaced by checked versions of themselves.
var growing = []string{"repeat", "replace", "join", "split", "splitAfter", "toJSON", "fromJSON",
	"toBase64", "string", "concat", "flatten", "toPairs", "fromPairs"}

// checkedName reports whether name is one of the functions a condition is
// compiled with to check sizes: calling one reads nothing from the
// environment.
func checkedName(name string) bool {
	_, tick := ticks[name]
	return name == concatStrings || name == concatAny || tick || slices.Contains(growing, name)
}

// The functions each closure body is wrapped in, by the body's type, so
// that an evaluation abandoned after its time limit stops at its next
// iteration; the typed ones keep the closure's type.
var ticks = map[string]reflect.Type{
	"$tick":       nil,
	"$tickBool":   reflect.TypeFor[func(bool) bool](),
	"$tickString": reflect.TypeFor[func(string) string](),
	"$tickInt":    reflect.TypeFor[func(int) int](),
	"$tickFloat":  reflect.TypeFor[func(float64) float64](),
}

// tickFor names the tick function for a closure body of type t.
func tickFor(t reflect.Type) string {
	if t != nil {
		switch t.Kind() {
		case reflect.Bool:
			return "$tickBool"
		case reflect.String:
			return "$tickString"
		case reflect.Int:
			return "$tickInt"
		case reflect.Float64:
			return "$tickFloat"
		}
	}
	return "$tick"
}

// meter counts the bytes one evaluation of a program builds through
// checked functions. A program's evaluations hold its meter one at a time.
type meter struct {
	limit int
	used  int         // by the evaluation that holds the meter
	stop  atomic.Bool // the evaluation was abandoned: fail at the next check
}

// take records n more bytes, or fails before they are built when that
// would pass the limit.
func (m *meter) take(n int) error {
	if m.stop.Load() {
		return errAbandoned
	}
	if n > m.limit-m.used {
		return tooMuch(m.used+n, m.limit)
	}
	m.used += n
	return nil
}

var errAbandoned = errors.New("evaluation abandoned after its time limit")

// install puts into c the checked functions bound to m that src may call,
// and removes those of an earlier compile (c is not shared while a program
// is compiled), with the patcher when src has a + or a closure. A name src
// does not contain cannot be called by it.
func (m *meter) install(c *conf.Config, src string) {
	clear := func(names ...string) {
		for _, name := range names {
			delete(c.Functions, name)
		}
	}
	plus := strings.Contains(src, "+")
	if plus {
		c.Functions[concatStrings] = &builtin.Function{Name: concatStrings, Func: m.concat,
			Types: []reflect.Type{reflect.TypeFor[func(string, string) string]()}}
		c.Functions[concatAny] = &builtin.Function{Name: concatAny, Func: m.concat}
	} else {
		clear(concatStrings, concatAny)
	}
	for _, name := range growing {
		if strings.Contains(src, name) {
			c.Functions[name] = m.checked(name)
		} else {
			clear(name)
		}
	}
	closures := slices.ContainsFunc(builtin.Builtins, func(b *builtin.Function) bool {
		return b.Predicate && strings.Contains(src, b.Name)
	})
	c.Visitors = nil // expr type-checks the whole tree once more per visitor
	if plus || closures {
		c.Visitors = []ast.Visitor{limitPatcher{}}
	}
	for name, t := range ticks {
		if !closures {
			clear(name)
			continue
		}
		fn := &builtin.Function{Name: name, Func: m.tick}
		if t != nil {
			fn.Types = []reflect.Type{t}
		}
		c.Functions[name] = fn
	}
}

// tick passes a closure's value through, failing once the evaluation was
// abandoned.
func (m *meter) tick(args ...any) (any, error) {
	if m.stop.Load() {
		return nil, errAbandoned
	}
	return args[0], nil
}

// concat is + with the result's size checked before it is built.
func (m *meter) concat(args ...any) (any, error) {
	a, aok := args[0].(string)
	b, bok := args[1].(string)
	if aok && bok {
		if err := m.take(len(a) + len(b)); err != nil {
			return nil, err
		}
		return a + b, nil
	}
	return runtime.Add(args[0], args[1]), nil
}

// checked returns the builtin name as a function that refuses to build
// more than the meter allows: repeat and replace before building, the
// others once built (their results are at most a small multiple of their
// arguments, which were checked when they were built).
func (m *meter) checked(name string) *builtin.Function {
	orig := builtin.Builtins[builtin.Index[name]]
	call := func(args ...any) (any, error) {
		switch {
		case orig.Fast != nil:
			return orig.Fast(args[0]), nil
		case orig.Safe != nil:
			out, _, err := orig.Safe(args...)
			return out, err
		default:
			return orig.Func(args...)
		}
	}
	fn := *orig
	fn.Fast, fn.Safe = nil, nil
	fn.Func = func(args ...any) (any, error) {
		if n := resultBound(name, args, m.limit-m.used); n > m.limit-m.used {
			return nil, m.take(n)
		}
		if m.stop.Load() {
			return nil, errAbandoned
		}
		out, err := call(args...)
		if err != nil {
			return nil, err
		}
		if err := m.take(size(out, m.limit-m.used)); err != nil {
			return nil, err
		}
		return out, nil
	}
	return &fn
}

// resultBound is an upper bound of the bytes a call will build, computed
// without building it: for repeat and replace from their arguments, for the
// others the size of the arguments (their results are at most a small
// multiple of it, checked again once built).
func resultBound(name string, args []any, limit int) int {
	switch name {
	case "repeat":
		s, _ := args[0].(string)
		n, ok := args[1].(int)
		if !ok || n <= 0 || len(s) == 0 {
			return 0
		}
		if n > limit/len(s) {
			return limit + 1
		}
		return len(s) * n
	case "replace":
		s, _ := args[0].(string)
		old, _ := args[1].(string)
		repl, _ := args[2].(string)
		if len(repl) <= len(old) {
			return len(s)
		}
		k := strings.Count(s, old)
		if len(args) == 4 {
			if n, ok := args[3].(int); ok && n >= 0 {
				k = min(k, n)
			}
		}
		if k > 0 && len(repl)-len(old) > (limit-len(s))/k {
			return limit + 1
		}
		return len(s) + k*(len(repl)-len(old))
	case "toBase64":
		s, _ := args[0].(string)
		return base64.StdEncoding.EncodedLen(len(s))
	case "split", "splitAfter", "fromJSON":
		return 0 // checked once built: at most a few times its argument
	}
	// join, toJSON, string, concat, flatten, toPairs, fromPairs: the result
	// is about the size of the arguments, which may share structure (a
	// value built by doubling an array holds few distinct parts but prints
	// as billions), so they are measured before anything is built.
	n := 0
	for _, a := range args {
		n += size(a, limit-n)
		if n > limit {
			break
		}
	}
	return n
}

// elementBytes is what one element of an array or map is counted as.
const elementBytes = 16

// size returns the bytes v holds: the length of each string and
// elementBytes for each element or map entry, nested values included. It
// stops counting once past limit.
func size(v any, limit int) int {
	switch v := v.(type) {
	case nil, bool, int, int64, float64:
		return 0
	case string:
		return len(v)
	case []any:
		n := len(v) * elementBytes
		for _, e := range v {
			if n > limit {
				return n
			}
			n += size(e, limit-n)
		}
		return n
	case map[string]any:
		n := len(v) * elementBytes
		for k, e := range v {
			if n > limit {
				return n
			}
			n += len(k) + size(e, limit-n)
		}
		return n
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return rv.Len()
	case reflect.Slice, reflect.Array:
		n := rv.Len() * elementBytes
		for i := 0; i < rv.Len() && n <= limit; i++ {
			n += size(rv.Index(i).Interface(), limit-n)
		}
		return n
	case reflect.Map:
		n := rv.Len() * elementBytes
		for it := rv.MapRange(); it.Next() && n <= limit; {
			n += size(it.Key().Interface(), limit-n) + size(it.Value().Interface(), limit-n)
		}
		return n
	}
	return 0
}

// limitPatcher compiles + to a checked concatenation wherever both sides
// may be strings (two string literals are left to expr's constant folding:
// their sum is no longer than the source), and wraps each closure body in
// a tick.
type limitPatcher struct{}

func (limitPatcher) Visit(node *ast.Node) {
	if p, ok := (*node).(*ast.PredicateNode); ok {
		p.Node = &ast.CallNode{Callee: &ast.IdentifierNode{Value: tickFor(p.Node.Type())}, Arguments: []ast.Node{p.Node}}
		return
	}
	b, ok := (*node).(*ast.BinaryNode)
	if !ok || b.Operator != "+" {
		return
	}
	_, lit1 := b.Left.(*ast.StringNode)
	_, lit2 := b.Right.(*ast.StringNode)
	if lit1 && lit2 {
		return
	}
	l, r := mayBeString(b.Left.Type()), mayBeString(b.Right.Type())
	if l == notString || r == notString {
		return
	}
	name := concatAny
	if l == isString && r == isString {
		name = concatStrings
	}
	ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: name}, Arguments: []ast.Node{b.Left, b.Right}})
}

// patches reports whether the limit patcher has something to change in
// node: a + or a closure (the source's text may only seem to have one, as
// in 'a+b' or a name containing "all").
func patches(node ast.Node) bool {
	return anyNode(node, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryNode)
		_, closure := n.(*ast.PredicateNode)
		return closure || ok && b.Operator == "+"
	})
}

type stringness int

const (
	notString stringness = iota
	isString
	unknownType
)

func mayBeString(t reflect.Type) stringness {
	switch {
	case t == nil || t.Kind() == reflect.Interface:
		return unknownType
	case t.Kind() == reflect.String:
		return isString
	}
	return notString
}

// loops reports whether a program runs a closure over a collection (map,
// filter, reduce, all, …): only such a program can run long, so only it is
// evaluated under the time limit.
func loops(node ast.Node) bool {
	return anyNode(node, func(n ast.Node) bool {
		_, ok := n.(*ast.PredicateNode)
		return ok
	})
}

// program is a compiled condition with what its evaluations share.
type program struct {
	*vm.Program
	// metered: it calls checked functions, bound to meter; its evaluations
	// take turns (sem), each starting with an empty meter.
	metered bool
	meter   *meter
	sem     chan struct{}
	loops   bool // it runs closures over collections: the time limit applies
	node    ast.Node
	// query is the pattern of a condition that only matches it against
	// the question, evaluated without a VM on a *QueryEnv.
	query *Regexp
}

// newProgram returns p, compiled from the tree node.
func newProgram(p *vm.Program, m *meter, node ast.Node) *program {
	loop := loops(node)
	return &program{Program: p, metered: loop || calls(node, checkedName), meter: m, sem: make(chan struct{}, 1), loops: loop, node: node}
}

// Node returns the tree the program was compiled from, as its source says
// (p.Program's may hold the calls constant patterns compile to).
func (p *program) Node() ast.Node { return p.node }

// evaluate runs p against env on a pooled VM. A program that loops runs on
// its own goroutine and is abandoned once it outlasts timeout: expr's VM
// cannot be interrupted, but an abandoned run is bounded by the memory
// budget and its meter, which fails its next check at once.
func (p *program) evaluate(env any, machines *sync.Pool, timeout time.Duration) (any, error) {
	if q, ok := env.(*QueryEnv); ok && p.query != nil {
		return q.match(p.query), nil
	}
	if !p.metered {
		return p.run(env, machines)
	}
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case p.sem <- struct{}{}:
	case <-expired: // an abandoned evaluation still holds the meter
		return nil, tooLong(timeout)
	}
	p.meter.used = 0
	p.meter.stop.Store(false)
	if !p.loops || timeout <= 0 {
		defer func() { <-p.sem }()
		return p.run(env, machines)
	}
	type result struct {
		out any
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := p.run(env, machines)
		<-p.sem
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-expired:
		p.meter.stop.Store(true)
		return nil, tooLong(timeout)
	}
}

// run runs p against env on a pooled VM.
func (p *program) run(env any, machines *sync.Pool) (any, error) {
	m := machines.Get().(*vm.VM)
	out, err := m.Run(p.Program, env)
	machines.Put(m)
	return out, err
}

// calls reports whether node calls a function whose name is.
func calls(node ast.Node, is func(string) bool) bool {
	return anyNode(node, func(n ast.Node) bool {
		c, ok := n.(*ast.CallNode)
		if !ok {
			return false
		}
		id, ok := c.Callee.(*ast.IdentifierNode)
		return ok && is(id.Value)
	})
}

// anyNode reports whether match holds for any node of the tree at node.
func anyNode(node ast.Node, match func(ast.Node) bool) bool {
	f := nodeFinder{match: match}
	ast.Walk(&node, &f)
	return f.found
}

type nodeFinder struct {
	match func(ast.Node) bool
	found bool
}

func (f *nodeFinder) Visit(node *ast.Node) { f.found = f.found || f.match(*node) }
