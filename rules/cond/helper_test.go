package cond

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/stretchr/testify/require"
)

// testLimits are the limits rules load with by default.
func testLimits() Limits {
	return Limits{MaxNodes: 1000, MemoryBudget: 1_000_000, MaxBytes: 16 << 20, Timeout: time.Second}
}

// compileIn parses src, a rules file (HCL JSON when name ends in .json)
// holding one block with one condition attribute, and compiles the
// condition against env with the default limits changed by opts.
func compileIn(t *testing.T, name, src string, env any, opts ...func(*Limits)) (*Condition, *Error) {
	t.Helper()
	var (
		f     *hcl.File
		diags hcl.Diagnostics
	)
	if strings.HasSuffix(name, ".json") {
		f, diags = json.Parse([]byte(src), name)
	} else {
		f, diags = hclsyntax.ParseConfig([]byte(src), name, hcl.InitialPos)
	}
	require.False(t, diags.HasErrors(), diags.Error())
	content, diags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "mode", LabelNames: []string{"name"}}}})
	require.False(t, diags.HasErrors(), diags.Error())
	require.Len(t, content.Blocks, 1)
	attrs, diags := content.Blocks[0].Body.JustAttributes()
	require.False(t, diags.HasErrors(), diags.Error())
	require.Len(t, attrs, 1)
	limits := testLimits()
	for _, o := range opts {
		o(&limits)
	}
	for _, attr := range attrs {
		v, diags := attr.Expr.Value(nil)
		require.False(t, diags.HasErrors(), diags.Error())
		c := NewCompiler(limits).Condition(env, v.AsString(), f.Bytes, attr.Expr.Range())
		return c, c.Compile()
	}
	return nil, nil
}

// modeWhen compiles when, an HCL string, as a mode's condition on the
// question; it must compile.
func modeWhen(t *testing.T, when string, opts ...func(*Limits)) *Condition {
	t.Helper()
	c, err := compileIn(t, "c.hcl", "mode \"m\" {\n  when = "+when+"\n}\n", QueryEnv{}, opts...)
	require.Nil(t, err)
	return c
}
