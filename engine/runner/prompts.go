package runner

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// promptData is what a role's prompt template sees.
type promptData struct {
	Query       string       // the question
	Mode        string       // strict | discovery | monitor | …
	Role        string       // the agent role
	Task        string       // the step's hypothesis description
	Step        string       // the step ID
	Pass        int          // 1-based
	Input       any          // the role input (sdk.AnalystInput, sdk.CriticInput, …)
	Records     []sdk.Record // the context records
	Trace       string       // summary of the last trace entries
	Corrections string       // summary of the trace's corrections
}

// instructions renders the role's prompt template, parsed when the plan
// was made; an error names the prompt block.
func (r *run) instructions(role string, data promptData) (string, error) {
	t, err := r.plan.Policy.Prompt(engine.Role(role))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("prompt %q: %w", role, err)
	}
	return b.String(), nil
}
