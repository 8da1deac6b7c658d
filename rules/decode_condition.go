package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/zclconf/go-cty/cty"
)

// condition decodes the condition attribute name and schedules its
// compilation against env; dst is set now and reset to nil if it does not
// compile. Errors are reported at the exact position inside the HCL string.
func (d *decoder) condition(attrs hcl.Attributes, name string, env any, dst **cond.Condition) {
	attr, ok := attrs[name]
	if !ok {
		return
	}
	v, ok := d.value(attr, cty.String)
	if !ok {
		return
	}
	c := d.conds.Condition(env, v.AsString(), d.src, attr.Expr.Range())
	*dst = c
	d.later(func() hcl.Diagnostics {
		e := c.Compile()
		if e == nil {
			return nil
		}
		*dst = nil
		return hcl.Diagnostics{Error(CheckExpr, e.Subject, fmt.Sprintf("Invalid condition in %q", name), e.Message+".")}
	})
}
