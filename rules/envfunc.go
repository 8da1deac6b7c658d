package rules

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// secretMarkers are the name fragments that make an env() variable secret.
var secretMarkers = []string{"TOKEN", "KEY", "SECRET", "PASSWORD"}

// isSecretName reports whether an environment variable name looks secret.
func isSecretName(name string) bool {
	upper := strings.ToUpper(name)
	for _, m := range secretMarkers {
		if strings.Contains(upper, m) {
			return true
		}
	}
	return false
}

// evalContext returns the HCL evaluation context of rule files: env(),
// reading through lookup and recording secret values in secrets, and
// git_remote (see remoteFunc).
func evalContext(lookup func(string) (string, bool), secrets map[string]bool, remotes *remotes) *hcl.EvalContext {
	env := function.New(&function.Spec{
		Description: "Returns the value of an environment variable, or the default (\"\" when none is given).",
		Params:      []function.Parameter{{Name: "name", Type: cty.String}},
		VarParam:    &function.Parameter{Name: "default", Type: cty.String},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if len(args) > 2 {
				return cty.NilVal, function.NewArgErrorf(2, "env takes a name and at most one default, got %d arguments", len(args))
			}
			name := args[0].AsString()
			value, ok := lookup(name)
			if !ok && len(args) == 2 {
				value = args[1].AsString()
			}
			if value != "" && isSecretName(name) {
				secrets[value] = true
			}
			return cty.StringVal(value), nil
		},
	})
	return &hcl.EvalContext{Functions: map[string]function.Function{"env": env, "git_remote": remotes.function()}}
}
