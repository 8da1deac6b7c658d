// Package cond is the condition language of nous rules: expr conditions
// compiled once against a typed environment (QueryEnv, ItemEnv, StepEnv,
// ProfileEnv), bounded in size, memory, bytes built and time, and
// evaluated on pooled VMs; and the regular expressions conditions and
// entities share (Regexp), compiled once per load and run with literal
// shortcuts.
package cond

import (
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
	"github.com/hashicorp/hcl/v2"
)

// Condition is an expr condition compiled once at load time against a typed
// environment (QueryEnv, ItemEnv, StepEnv or ProfileEnv).
type Condition struct {
	Source string    // the expression text
	Range  hcl.Range // of the expression inside the HCL string
	// Constant is non-nil when the condition is always true or always false.
	Constant *bool
	program  *program
	compiled *compiledExpr // shared by the conditions with the same source and environment
	envType  reflect.Type  // the environment it was compiled against
	machines *sync.Pool    // of *vm.VM: reusing a VM saves its allocations
	timeout  time.Duration // of one evaluation that loops
	file     []byte        // the rules file's bytes, to find positions inside the literal
	literal  hcl.Range     // of the HCL string literal holding Source
}

// Error is a condition that does not compile: where and why.
type Error struct {
	Subject hcl.Range // the part of the condition at fault, else all of it
	Message string    // what is wrong, naming the environment's variables
}

func (e *Error) Error() string { return e.Message }

// Eval evaluates the condition against env, which must be a value or (to
// avoid copying it) a pointer of the environment type it was compiled for.
// A nil condition is true: absent conditions always hold. Eval is safe for
// concurrent use.
func (c *Condition) Eval(env any) (bool, error) {
	if c == nil {
		return true, nil
	}
	if c.Constant != nil {
		return *c.Constant, nil
	}
	if t := reflect.TypeOf(env); t != c.envType && (t == nil || t.Kind() != reflect.Pointer || t.Elem() != c.envType) {
		return false, fmt.Errorf("condition %q at %s: needs a %v environment, got %T", c.Source, c.Range, c.envType, env)
	}
	out, err := c.program.evaluate(env, c.machines, c.timeout)
	if err != nil {
		return false, fmt.Errorf("condition %q at %s: %w", c.Source, c.Range, err)
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("condition %q at %s: result is %T, not bool", c.Source, c.Range, out)
	}
	return b, nil
}

// newMachines returns a pool of VMs that evaluate with the memory budget.
func newMachines(budget uint) *sync.Pool {
	return &sync.Pool{New: func() any { return &vm.VM{MemoryBudget: budget} }}
}

// RangeOf returns where the runes from..to of Source are in the rules file,
// or the whole string literal's range when that cannot be told (a value
// built by an HCL expression rather than written as one literal).
func (c *Condition) RangeOf(from, to int) hcl.Range {
	positions, exact := literalPositions(c.file, c.literal, c.Source)
	if !exact {
		return c.literal
	}
	from = min(max(from, 0), len(positions)-1)
	to = min(max(to, from), len(positions)-1)
	return hcl.Range{Filename: c.literal.Filename, Start: positions[from], End: positions[to]}
}

// Node returns the condition's syntax tree as compiled (after expr's
// optimizer), for lint; nil when the condition did not compile.
func (c *Condition) Node() ast.Node {
	if c == nil || c.program == nil {
		return nil
	}
	return c.program.Node()
}
