package rules

import (
	"github.com/expr-lang/expr/vm"
	"github.com/hashicorp/hcl/v2"
)

// Condition is an expr condition compiled once at load time against a typed
// environment (QueryEnv, ItemEnv or StepEnv).
type Condition struct {
	Source string    // the expression text
	Range  hcl.Range // of the expression inside the HCL string
	// Constant is non-nil when the condition is always true or always false.
	Constant *bool
	program  *vm.Program
}
