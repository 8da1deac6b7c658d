package lint

import (
	"testing"

	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
)

// The shipped default rules must lint clean: they are what users copy.
func TestDefaultRulesAreClean(t *testing.T) {
	rs, diags := rules.LoadFS(examples.DefaultRules(), rules.WithEnv(nil))
	got := Run(rs, diags)
	assert.Empty(t, got, got.Error())
}
