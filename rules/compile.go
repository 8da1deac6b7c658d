package rules

import (
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

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
	c := &Condition{Source: src, Range: attr.Expr.Range(), envType: reflect.TypeOf(env), machines: d.machines,
		timeout: d.exprs.limits.timeout, file: d.src, literal: attr.Expr.Range()}
	*dst = c
	compiled := d.exprs.get(env, src)
	d.later(func() hcl.Diagnostics {
		c.Range = c.RangeOf(0, utf8.RuneCountInString(src))
		program, constant, err := compiled.result()
		if err == nil {
			c.program, c.Constant = program, constant
			return nil
		}
		*dst = nil
		var fe *file.Error
		subject, msg := c.Range, err.Error()
		if errors.As(err, &fe) {
			msg = fe.Message
			subject = c.RangeOf(fe.From, max(fe.To, fe.From+1))
		}
		return hcl.Diagnostics{Error(CheckExpr, subject, fmt.Sprintf("Invalid condition in %q", name),
			fmt.Sprintf("%s (the condition is evaluated against %s).", msg, envDescription(env)))}
	})
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
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		f.found = f.found || !checkedName(n.Value)
	case *ast.VariableDeclaratorNode:
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
