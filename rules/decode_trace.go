package rules

import "github.com/hashicorp/hcl/v2"

func (d *decoder) decodeTrace(b *hcl.Block) {
	if !d.single(&d.traceAt, b) {
		return
	}
	c := d.content(b.Body, reasoningTraceSchema)
	d.flag(c.Attributes, "enabled", &d.rs.Trace.Enabled)
}
