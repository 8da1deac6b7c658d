package runner

import (
	"fmt"
	"strings"
	"text/template"

	"github.com/nous-dev/nous/rules"
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

// defaultPrompts are used for roles the rules give no prompt block.
var defaultPrompts = map[string]string{
	sdk.RoleAnalyst:       "You are the analyst. Research the question {{printf \"%q\" .Query}} in {{.Mode}} mode from the context records and answer with JSON matching the schema.",
	sdk.RoleCritic:        "You are the critic. Review the draft for the question {{printf \"%q\" .Query}} in {{.Mode}} mode and answer with JSON matching the schema.",
	sdk.RoleWriter:        "You are the writer. Compose the final report for {{printf \"%q\" .Query}} in {{.Mode}} mode and answer with JSON matching the schema.",
	sdk.RoleClarification: "You are the clarification agent. Offer options that disambiguate {{printf \"%q\" .Query}} and answer with JSON matching the schema.",
}

// instructions renders the role's prompt template. Templates are parsed
// once per run; an error names the prompt block.
func (r *run) instructions(role string, data promptData) (string, error) {
	t, err := r.template(role)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("prompt %q: %w", role, err)
	}
	return b.String(), nil
}

func (r *run) template(role string) (*template.Template, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.templates[role]; ok {
		return t, r.templateErr[role]
	}
	src, where := defaultPrompts[role], "built-in prompt"
	if p := r.rs.Prompt(role); p != nil {
		if p.Parsed != nil { // parsed once when the rules were loaded
			r.templates[role] = p.Parsed
			return p.Parsed, nil
		}
		src, where = p.Template, fmt.Sprintf("prompt %q at %s", role, p.Range)
	}
	t, err := template.New(role).Option("missingkey=error").Funcs(rules.PromptFuncs()).Parse(src)
	if err != nil {
		err = fmt.Errorf("%s: %w", where, err)
	}
	r.templates[role], r.templateErr[role] = t, err
	return t, err
}
