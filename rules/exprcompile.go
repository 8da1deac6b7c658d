package rules

import (
	"errors"
	"reflect"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/vm"
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

	once     sync.Once
	program  *vm.Program
	constant *bool
	err      error
}

func newExprCache(maxNodes uint) *exprCache {
	return &exprCache{maxNodes: maxNodes, configs: map[reflect.Type]*sync.Pool{}, entries: map[exprKey]*compiledExpr{}}
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
	e := &compiledExpr{src: src, env: env, configs: configs}
	x.entries[key] = e
	return e
}

// result compiles the source on first use and finds out whether it is
// constant.
func (e *compiledExpr) result() (*vm.Program, *bool, error) {
	e.once.Do(func() {
		e.program, e.err = e.compile()
		if e.err == nil && !usesVariables(e.program.Node()) {
			if out, err := expr.Run(e.program, e.env); err == nil {
				if b, ok := out.(bool); ok {
					e.constant = &b
				}
			}
		}
	})
	return e.program, e.constant, e.err
}

// compile is what expr.Compile does once it has its configuration.
func (e *compiledExpr) compile() (*vm.Program, error) {
	cfg := e.configs.Get().(*conf.Config)
	defer e.configs.Put(cfg)
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
	return compiler.Compile(tree, cfg)
}
