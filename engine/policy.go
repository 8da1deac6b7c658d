package engine

import (
	"fmt"
	"sync"
	texttemplate "text/template"
	"time"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/cond"
)

// Action is what a step does.
type Action string

// Step actions.
const (
	ActionNone      Action = "" // passes its inputs through
	ActionRetrieve  Action = "retrieve"
	ActionFilter    Action = "filter"
	ActionRank      Action = "rank"
	ActionAggregate Action = "aggregate"
	ActionStats     Action = "stats"
	ActionAgent     Action = "agent"
	ActionEffect    Action = "effect" // changes an external system: never performed, reported as not executed
)

// Role is the agent role a step runs.
type Role string

// Agent roles.
const (
	RoleNone          Role = "" // the step runs no agent
	RoleAnalyst       Role = "analyst"
	RoleCritic        Role = "critic"
	RoleWriter        Role = "writer"
	RoleClarification Role = "clarification"
	RoleValidator     Role = "validator" // judges each pass's settled steps; no hypothesis takes it
)

// Policy is what a run needs of the rules, compiled when the plan is made,
// so the run reads no rules of its own.
type Policy struct {
	Limits Limits
	Mode   *Mode            // the plan's mode; nil when the rules do not define it
	Tiers  map[string]Tier  // the tier table, by record source (site) name
	Checks []Check          // run after each step, in declaration order
	Agents map[string]Agent // the declared agents, by name
	// Validator is the agent validation of each pass; nil when the rules
	// configure none.
	Validator *Validator
	// TraceOff records no reasoning trace (reasoning_trace.enabled =
	// false); the zero value keeps it, as the default rules do.
	TraceOff bool
	Depths   *Depths // the reasoning-depth levels; nil when the rules define none
	prompts  map[Role]*texttemplate.Template
	errs     map[Role]error // prompts that do not parse
}

// Limits bound the run's loop; every one is set.
type Limits struct {
	MaxPasses     int
	TTL           time.Duration
	RefinePerStep int
	RefineTotal   int
	Workers       int // steps run in parallel
	MaxRecords    int // records a step holds and shows the agents; the rest are counted
}

// Mode is the source-tier policy of the plan's mode.
type Mode struct {
	Name     string
	Keep     *cond.Condition // records kept (cond.ItemEnv); nil keeps all
	Warn     *cond.Condition // records flagged (cond.ItemEnv); nil flags none
	Required bool            // keeping no record is the "no valid sources" error
	Compare  []int           // tiers compared side by side
}

// Tier is a tier-table entry.
type Tier struct {
	Tier int
	Type string
}

// Check is a validation run after each step.
type Check struct {
	Name    string
	Applies *cond.Condition // cond.StepEnv; nil applies to every step
	Assert  *cond.Condition // cond.StepEnv
	Message string
	OnFail  string // refine | warn | fail
	Refine  *Refine
}

// Validator is the semantic validation an agent makes of each pass's
// settled steps, at the pass's evaluate phase.
type Validator struct {
	Agent string
	When  *cond.Condition // cond.PassEnv; nil validates every pass
	Steps *cond.Condition // cond.StepEnv: the steps judged; nil judges every settled step
}

// Refine is the refinement a failed check asks for.
type Refine struct {
	Op          string // ADD | MODIFY | REMOVE | REPLACE (decoding makes an unnamed op MODIFY)
	DropFilters []string
	SetFilters  map[string][]string
	Limit       int
	Nearest     string // NearestBefore | NearestAfter: look around an empty period; "" is off
}

// Values of Refine.Nearest.
const (
	NearestBefore = rules.NearestBefore
	NearestAfter  = rules.NearestAfter
)

// Agent is a declared agent.
type Agent struct {
	Timeout time.Duration // bounds each call; 0 leaves only the run's TTL
}

// Prompt returns the parsed instruction template of role: the rules'
// prompt block, else the built-in prompt. An error names the block.
func (p *Policy) Prompt(role Role) (*texttemplate.Template, error) {
	if err := p.errs[role]; err != nil {
		return nil, err
	}
	if t := p.prompts[role]; t != nil {
		return t, nil
	}
	if t := builtinPrompts()[role]; t != nil {
		return t, nil
	}
	return newPrompt(role).Parse("") // a role with no built-in prompt
}

// builtinPromptSources are the prompts of roles the rules give no prompt block.
var builtinPromptSources = map[Role]string{
	RoleAnalyst:       "You are the analyst. Research the question {{printf \"%q\" .Query}} in {{.Mode}} mode from the context records and answer with JSON matching the schema.",
	RoleCritic:        "You are the critic. Review the draft for the question {{printf \"%q\" .Query}} in {{.Mode}} mode and answer with JSON matching the schema.",
	RoleWriter:        "You are the writer. Compose the final report for {{printf \"%q\" .Query}} in {{.Mode}} mode and answer with JSON matching the schema.",
	RoleClarification: "You are the clarification agent. Offer options that disambiguate {{printf \"%q\" .Query}} and answer with JSON matching the schema.",
	RoleValidator:     "You are the validator. Judge whether each step's result answers its hypothesis for the question {{printf \"%q\" .Query}} in {{.Mode}} mode, suggest deltas for the invalid ones, and answer with JSON matching the schema.",
}

// builtinPrompts are the built-in prompts, parsed once per process.
var builtinPrompts = sync.OnceValue(func() map[Role]*texttemplate.Template {
	out := make(map[Role]*texttemplate.Template, len(builtinPromptSources)+1)
	for role, src := range builtinPromptSources {
		out[role] = texttemplate.Must(newPrompt(role).Parse(src))
	}
	return out
})

func newPrompt(role Role) *texttemplate.Template {
	return texttemplate.New(string(role)).Option("missingkey=error").Funcs(rules.PromptFuncs())
}

// compilePolicy compiles what a run needs of rs; the mode is set per plan.
func compilePolicy(rs *rules.Ruleset) Policy {
	l := rs.Loop
	p := Policy{
		Limits: Limits{MaxPasses: l.MaxPasses, TTL: l.TTL, RefinePerStep: l.RefinePerStep, RefineTotal: l.RefineTotal,
			Workers: l.Workers, MaxRecords: l.MaxRecords},
		TraceOff: !rs.Trace.Enabled,
		Tiers:    make(map[string]Tier, len(rs.Tiers)),
		Checks:   make([]Check, len(rs.Checks)),
		Agents:   make(map[string]Agent, len(rs.Agents)),
		Depths:   compileDepths(rs),
		prompts:  make(map[Role]*texttemplate.Template, len(rs.Prompts)),
	}
	for _, t := range rs.Tiers {
		p.Tiers[t.Source] = Tier{Tier: t.Tier, Type: t.Type}
	}
	for i, c := range rs.Checks {
		p.Checks[i] = Check{Name: c.Name, Applies: c.Applies, Assert: c.Assert, Message: c.Message, OnFail: c.OnFail}
		if r := c.Refine; r != nil {
			p.Checks[i].Refine = &Refine{Op: r.Op, DropFilters: r.DropFilters, SetFilters: r.SetFilters, Limit: r.Limit, Nearest: r.Nearest}
		}
	}
	for _, a := range rs.Agents {
		p.Agents[a.Name] = Agent{Timeout: a.Timeout}
	}
	if v := rs.Validator; v != nil {
		p.Validator = &Validator{Agent: v.Agent, When: v.When, Steps: v.Steps}
	}
	for _, pr := range rs.Prompts {
		role := Role(pr.Role)
		t, err := pr.Parsed, error(nil) // parsed once when the rules were loaded
		if t == nil {
			t, err = newPrompt(role).Parse(pr.Template)
		}
		if err != nil {
			if p.errs == nil {
				p.errs = map[Role]error{}
			}
			p.errs[role] = fmt.Errorf("prompt %q at %s: %w", pr.Role, pr.Range, err)
			delete(p.prompts, role)
			continue
		}
		delete(p.errs, role)
		p.prompts[role] = t
	}
	return p
}

// compileMode compiles the tier policy of m.
func compileMode(m *rules.Mode) *Mode {
	return &Mode{Name: m.Name, Keep: m.Keep, Warn: m.Warn, Required: m.OnEmpty == "error", Compare: m.Compare}
}
