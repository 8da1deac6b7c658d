package runner

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/nous-dev/nous/engine"
)

// notExecuted starts what a step says when its action is an effect.
const notExecuted = "not executed"

// politeness is the courtesy before a command that is no part of it.
var politeness = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(?:please|kindly)\b[\s,]*`) })

// command is the question as the command it asks for: without a leading
// "please" and closing punctuation.
func (r *run) command() string {
	c := politeness().ReplaceAllString(strings.TrimSpace(r.plan.Query), "")
	return oneLine(strings.TrimRight(c, ".!? "))
}

// effectCaveats say that the run's effects were not executed, and what
// they would do: nous never changes an external system.
func (r *run) effectCaveats() []string {
	var would []string
	for _, st := range r.steps {
		if st.action() == string(engine.ActionEffect) && st.status == engine.StatusCompleted {
			would = append(would, fmt.Sprintf("%s (step %s)", st.hyp.Description, st.id))
		}
	}
	if len(would) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("Not executed: %s; here is what it would do: %s. nous does not change external systems.",
		r.command(), strings.Join(would, ", then "))}
}
