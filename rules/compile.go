package rules

import (
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// impureBuiltins are expr builtins that read the clock or the OS time zone
// database; conditions must be pure and deterministic.
var impureBuiltins = []string{"now", "date", "timezone"}

// condition decodes the condition attribute name and schedules its
// compilation against env; dst is set now and reset to nil if it does not
// compile. Errors are reported at the exact position inside the HCL string.
func (d *decoder) condition(attrs hcl.Attributes, name string, env any, dst **Condition) {
	attr, ok := attrs[name]
	if !ok {
		return
	}
	v, ok := d.value(attr, cty.String)
	if !ok {
		return
	}
	src := v.AsString()
	lit := attr.Expr.Range()
	positions, exact := literalPositions(d.src, lit, src)
	rangeOf := func(from, to int) hcl.Range {
		if !exact {
			return lit
		}
		from = min(max(from, 0), len(positions)-1)
		to = min(max(to, from), len(positions)-1)
		return hcl.Range{Filename: lit.Filename, Start: positions[from], End: positions[to]}
	}
	c := &Condition{Source: src, Range: rangeOf(0, utf8.RuneCountInString(src)), envType: reflect.TypeOf(env), machines: d.machines}
	*dst = c
	maxNodes := d.cfg.maxNodes
	d.later(func() hcl.Diagnostics {
		err := c.compile(env, maxNodes)
		if err == nil {
			return nil
		}
		*dst = nil
		var fe *file.Error
		subject, msg := c.Range, err.Error()
		if errors.As(err, &fe) {
			msg = fe.Message
			subject = rangeOf(fe.From, max(fe.To, fe.From+1))
		}
		return hcl.Diagnostics{Error(CheckExpr, subject, fmt.Sprintf("Invalid condition in %q", name),
			fmt.Sprintf("%s (the condition is evaluated against %s).", msg, envDescription(env)))}
	})
}

// compile compiles the condition's source against env and finds out
// whether it is constant.
func (c *Condition) compile(env any, maxNodes uint) error {
	opts := make([]expr.Option, 0, 3+len(impureBuiltins))
	opts = append(opts, expr.Env(env), expr.AsBool(), expr.MaxNodes(maxNodes))
	for _, b := range impureBuiltins {
		opts = append(opts, expr.DisableBuiltin(b))
	}
	program, err := expr.Compile(c.Source, opts...)
	if err != nil {
		return err
	}
	c.program = program
	if !usesVariables(program.Node()) {
		if out, err := expr.Run(program, env); err == nil {
			if b, ok := out.(bool); ok {
				c.Constant = &b
			}
		}
	}
	return nil
}

// usesVariables reports whether an expression reads anything from its
// environment; one that does not is constant (all builtins left are pure).
func usesVariables(node ast.Node) bool {
	v := &identFinder{}
	ast.Walk(&node, v)
	return v.found
}

type identFinder struct{ found bool }

func (f *identFinder) Visit(node *ast.Node) {
	switch (*node).(type) {
	case *ast.IdentifierNode, *ast.VariableDeclaratorNode:
		f.found = true
	}
}

// envDescription names the variables of a condition environment for messages.
func envDescription(env any) string {
	t := reflect.TypeOf(env)
	names := ""
	for i := range t.NumField() {
		if i > 0 {
			names += ", "
		}
		names += t.Field(i).Tag.Get("expr")
	}
	return fmt.Sprintf("%s: %s", t.Name(), names)
}
