package rules

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format returns src in canonical HCL layout (hclwrite.Format). It refuses
// source that does not parse, returning its diagnostics and a nil result,
// so a broken file is never rewritten.
func Format(name string, src []byte) ([]byte, hcl.Diagnostics) {
	if diags := unparseable(name, src); diags != nil {
		return nil, diags
	}
	if _, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos); diags.HasErrors() {
		return nil, tag(diags, CheckSyntax)
	}
	return hclwrite.Format(src), nil
}
