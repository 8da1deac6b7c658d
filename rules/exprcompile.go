package rules

import (
	"errors"
	"reflect"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
)

// impureBuiltins are expr builtins that read the clock or the OS time zone
// database; conditions must be pure and deterministic.
var impureBuiltins = []string{"now", "date", "timezone"}

// exprCache compiles the conditions of one load. Each distinct source is
// compiled once per environment type, and the conditions repeating it share
// the program (a vm.Program is read-only and safe for concurrent use).
//
// It compiles as expr.Compile does, but reuses expr's configuration:
// expr.Compile builds a new one (with a map of every builtin) per call, a
// third of the cost of compiling a small condition. A configuration caches
// type information as it checks, so it is not safe for concurrent use: each
// environment type has a pool of them, in effect one per worker.
type exprCache struct {
	maxNodes uint
	limits   exprLimits
	machines *sync.Pool // for evaluating constant conditions at load
	// Both maps are used by the decoding goroutine only.
	configs map[reflect.Type]*sync.Pool
	entries map[exprKey]*compiledExpr
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

	limits   exprLimits
	machines *sync.Pool

	once     sync.Once
	program  *program
	constant *bool
	err      error
}

func newExprCache(maxNodes uint, limits exprLimits, machines *sync.Pool) *exprCache {
	return &exprCache{maxNodes: maxNodes, limits: limits, machines: machines,
		configs: map[reflect.Type]*sync.Pool{}, entries: map[exprKey]*compiledExpr{}}
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
func (x *exprCache) get(env any, src string) *compiledExpr {
	key := exprKey{reflect.TypeOf(env), src}
	if e := x.entries[key]; e != nil {
		return e
	}
	configs := x.configs[key.env]
	if configs == nil {
		configs = &sync.Pool{New: func() any {
			// What expr.Compile does before it parses.
			cfg := conf.CreateNew()
			for _, opt := range exprOptions(env, x.maxNodes) {
				opt(cfg)
			}
			for name := range cfg.Disabled {
				delete(cfg.Builtins, name)
			}
			cfg.Check()
			return cfg
		}}
		x.configs[key.env] = configs
	}
	e := &compiledExpr{src: src, env: env, configs: configs, limits: x.limits, machines: x.machines}
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
		out, err := e.program.evaluate(e.env, e.machines, e.limits.timeout)
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
// the checked functions bound to a meter of this program's own.
func (e *compiledExpr) compile() (*program, error) {
	cfg := e.configs.Get().(*conf.Config)
	defer e.configs.Put(cfg)
	m := &meter{limit: e.limits.maxBytes}
	m.install(cfg, e.src)
	tree, err := checker.ParseCheck(e.src, cfg)
	if err != nil {
		return nil, err
	}
	if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, fe.Bind(tree.Source)
		}
		return nil, err
	}
	p, err := compiler.Compile(tree, cfg)
	if err != nil {
		return nil, err
	}
	return newProgram(p, m), nil
}
