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

// condition decodes and compiles the condition attribute name against env.
// Errors are reported at the exact position inside the HCL string.
func (d *decoder) condition(attrs hcl.Attributes, name string, env any) *Condition {
	attr, ok := attrs[name]
	if !ok {
		return nil
	}
	v, ok := d.value(attr, cty.String)
	if !ok {
		return nil
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
	opts := []expr.Option{expr.Env(env), expr.AsBool(), expr.MaxNodes(d.cfg.maxNodes)}
	for _, b := range impureBuiltins {
		opts = append(opts, expr.DisableBuiltin(b))
	}
	program, err := expr.Compile(src, opts...)
	if err != nil {
		var fe *file.Error
		subject := c.Range
		msg := err.Error()
		if errors.As(err, &fe) {
			msg = fe.Message
			subject = rangeOf(fe.From, max(fe.To, fe.From+1))
		}
		d.add(Error(CheckExpr, subject, fmt.Sprintf("Invalid condition in %q", name),
			fmt.Sprintf("%s (the condition is evaluated against %s).", msg, envDescription(env))))
		return nil
	}
	c.program = program
	if !usesVariables(program.Node()) {
		if out, err := expr.Run(program, env); err == nil {
			if b, ok := out.(bool); ok {
				c.Constant = &b
			}
		}
	}
	return c
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
