package cond

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
	"github.com/hashicorp/hcl/v2"
)

var queryEnvType = reflect.TypeFor[QueryEnv]()

// impureBuiltins are expr builtins that read the clock or the OS time zone
// database; conditions must be pure and deterministic.
var impureBuiltins = []string{"now", "date", "timezone"}

// Limits bound a condition's size and each of its evaluations.
type Limits struct {
	MaxNodes     uint          // of the syntax tree
	MemoryBudget uint          // expr's vm.MemoryBudget of one evaluation
	MaxBytes     int           // built by + and growing builtins in one evaluation
	Timeout      time.Duration // of one evaluation of a condition that loops; 0 for none
}

// Compiler compiles the conditions of one rules load. Each distinct source
// is compiled once per environment type, and the conditions repeating it
// share the program (a vm.Program is read-only and safe for concurrent use).
//
// It compiles as expr.Compile does, but reuses expr's configuration:
// expr.Compile builds a new one (with a map of every builtin) per call, a
// third of the cost of compiling a small condition. A configuration caches
// type information as it checks, so it is not safe for concurrent use: each
// environment type has a pool of them, in effect one per worker.
type Compiler struct {
	limits Limits
	// machines is shared by the compiled conditions: they all evaluate
	// with the same memory budget.
	machines *sync.Pool
	// Both maps are used by the goroutine that calls Condition only.
	configs map[reflect.Type]*sync.Pool
	entries map[exprKey]*compiledExpr
	regexps *regexps
}

type exprKey struct {
	env reflect.Type
	src string
}

// compiledExpr is the outcome of compiling one source against one
// environment, computed by whichever job asks first.
type compiledExpr struct {
	src     string
	env     any
	configs *sync.Pool
	regexps *regexps

	limits   Limits
	machines *sync.Pool

	once     sync.Once
	program  *program
	constant *bool
	err      error
}

// NewCompiler returns a compiler of conditions bounded by limits.
func NewCompiler(limits Limits) *Compiler {
	return &Compiler{limits: limits, machines: newMachines(limits.MemoryBudget),
		configs: map[reflect.Type]*sync.Pool{}, entries: map[exprKey]*compiledExpr{},
		regexps: &regexps{entries: map[string]*regexpEntry{}}}
}

// Condition returns the condition src against env (a value of QueryEnv,
// ItemEnv, StepEnv or ProfileEnv), written as the string literal at literal in the
// rules file; it is not compiled until Compile. Condition is not safe for
// concurrent use.
func (x *Compiler) Condition(env any, src string, file []byte, literal hcl.Range) *Condition {
	return &Condition{Source: src, Range: literal, compiled: x.get(env, src), envType: reflect.TypeOf(env),
		machines: x.machines, timeout: x.limits.Timeout, file: file, literal: literal}
}

// Compile compiles c; it returns nil, or where and why c does not compile. It sets Range to the expression's place inside the string
// literal and Constant when the condition reads nothing. Conditions of one
// Compiler may be compiled concurrently, each once.
func (c *Condition) Compile() *Error {
	c.Range = c.RangeOf(0, utf8.RuneCountInString(c.Source))
	program, constant, err := c.compiled.result()
	if err == nil {
		c.program, c.Constant = program, constant
		return nil
	}
	subject, msg := c.Range, err.Error()
	var fe *file.Error
	if errors.As(err, &fe) {
		msg = fe.Message
		subject = c.RangeOf(fe.From, max(fe.To, fe.From+1))
	}
	return &Error{Subject: subject, Message: fmt.Sprintf("%s (the condition is evaluated against %s)", msg, envDescription(c.compiled.env))}
}

// exprOptions are the options every condition is compiled with.
func exprOptions(env any, maxNodes uint) []expr.Option {
	opts := make([]expr.Option, 0, 3+len(impureBuiltins))
	opts = append(opts, expr.Env(env), expr.AsBool(), expr.MaxNodes(maxNodes))
	for _, b := range impureBuiltins {
		opts = append(opts, expr.DisableBuiltin(b))
	}
	return opts
}

// get returns the shared entry for src against env; nothing is compiled yet.
func (x *Compiler) get(env any, src string) *compiledExpr {
	key := exprKey{reflect.TypeOf(env), src}
	if e := x.entries[key]; e != nil {
		return e
	}
	configs := x.configs[key.env]
	if configs == nil {
		configs = &sync.Pool{New: func() any {
			// What expr.Compile does before it parses.
			cfg := conf.CreateNew()
			for _, opt := range exprOptions(env, x.limits.MaxNodes) {
				opt(cfg)
			}
			for name := range cfg.Disabled {
				delete(cfg.Builtins, name)
			}
			installMatches(cfg)
			cfg.Check()
			return cfg
		}}
		x.configs[key.env] = configs
	}
	e := &compiledExpr{src: src, env: env, configs: configs, regexps: x.regexps, limits: x.limits, machines: x.machines}
	x.entries[key] = e
	return e
}

// result compiles the source on first use and finds out whether it is
// constant. A constant condition is evaluated here, under the same limits
// as at run time; one that reaches a limit is an error now rather than at
// every evaluation.
func (e *compiledExpr) result() (*program, *bool, error) {
	e.once.Do(func() {
		e.program, e.err = e.compile()
		if e.err != nil || usesVariables(e.program.Node()) {
			return
		}
		out, err := e.program.evaluate(e.env, e.machines, e.limits.Timeout)
		if limitReached(err) {
			e.program, e.err = nil, err
			return
		}
		if b, ok := out.(bool); ok && err == nil {
			e.constant = &b
		}
	})
	return e.program, e.constant, e.err
}

// limitReached reports whether err is an evaluation stopped by a limit:
// nous's own or expr's memory budget.
func limitReached(err error) bool {
	var le *LimitError
	return err != nil && (errors.As(err, &le) || strings.Contains(err.Error(), "memory budget exceeded"))
}

// compile is what expr.Compile does once it has its configuration, with
// the checked functions bound to a meter of this program's own, and each
// matches with a constant pattern calling the load's shared Regexp.
func (e *compiledExpr) compile() (*program, error) {
	cfg := e.configs.Get().(*conf.Config)
	defer e.configs.Put(cfg)
	m := &meter{limit: e.limits.MaxBytes}
	m.install(cfg, e.src)
	tree, err := parser.ParseWithConfig(e.src, cfg)
	if err != nil {
		return nil, err
	}
	found := hidePatterns(&tree.Node, e.regexps)
	if err := check(tree, cfg); err != nil {
		return nil, err
	}
	if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, fe.Bind(tree.Source)
		}
		return nil, err
	}
	root := tree.Node
	swaps := callRegexps(&tree.Node, found)
	p, err := compiler.Compile(tree, cfg)
	putBack(swaps, found)
	if err != nil {
		return nil, err
	}
	prog := newProgram(p, m, root)
	if reflect.TypeOf(e.env) == queryEnvType {
		prog.query = queryMatch(root, found)
	}
	return prog, nil
}

// check is checker.ParseCheck's checking without its waste: that
// type-checks a tree three times when a patcher is configured (once per
// pass of its visitor loop, then for the result). Here the tree is checked
// once, or twice when the patcher has something to patch (it reads the
// types).
func check(tree *parser.Tree, cfg *conf.Config) error {
	for _, v := range cfg.Visitors {
		if patches(tree.Node) {
			_, _ = checker.Check(tree, cfg)
			ast.Walk(&tree.Node, v)
		}
	}
	_, err := checker.Check(tree, cfg)
	return err
}

// usesVariables reports whether an expression reads anything from its
// environment; one that does not is constant (all builtins left are pure).
func usesVariables(node ast.Node) bool {
	return anyNode(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IdentifierNode:
			return !checkedName(n.Value)
		case *ast.VariableDeclaratorNode:
			return true
		}
		return false
	})
}

// envDescription names the variables of a condition environment for messages.
func envDescription(env any) string {
	t := reflect.TypeOf(env)
	names := ""
	for i := range t.NumField() {
		name := t.Field(i).Tag.Get("expr")
		if name == "" {
			continue // not a variable
		}
		if names != "" {
			names += ", "
		}
		names += name
	}
	return fmt.Sprintf("%s: %s", t.Name(), names)
}
