package rules

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
)

// RoleValidator is the role the validator block's agent plays; no
// hypothesis takes it.
const RoleValidator = "validator"

func (d *decoder) decodeValidator(b *hcl.Block) {
	if !d.single(&d.validatorAt, b) {
		return
	}
	c := d.content(b.Body, validatorSchema)
	v := &Validator{Range: b.DefRange}
	if d.str(c.Attributes, "agent", &v.Agent) {
		d.refs = append(d.refs, reference{kind: "agent", name: v.Agent, where: c.Attributes["agent"].Expr.Range(), attr: "validator's agent"})
	}
	d.condition(c.Attributes, "when", cond.PassEnv{}, &v.When)
	d.condition(c.Attributes, "steps", cond.StepEnv{}, &v.Steps)
	d.rs.Validator = v
}
