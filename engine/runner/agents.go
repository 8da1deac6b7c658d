package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/jsonrepair"
	"github.com/nous-dev/nous/engine/tier"
	"github.com/nous-dev/nous/sdk"
)

// agentStep runs st's agent role. A writer step is the actor-critic loop
// of the source documents: the analyst drafts (or revises against the last
// review), the critic reviews, and on PASS or WARN the writer composes
// compose(draft, review, context, mode). A REJECT leaves the step invalid
// so the next pass revises.
func (r *run) agentStep(ctx context.Context, pass int, st *stepState, in []sdk.Record, omitted tally) (output, error) {
	c := newAgentCall(ctx, r, pass, st, in, omitted)
	switch st.role() {
	case sdk.RoleAnalyst:
		return c.analystOnly()
	case sdk.RoleCritic:
		return c.criticOnly()
	case sdk.RoleClarification:
		return c.clarify()
	default:
		return c.writer(false)
	}
}

// agentCall is one step's conversation with its agents.
type agentCall struct {
	r       *run
	ctx     context.Context
	pass    int
	st      *stepState
	records []sdk.Record  // the context: the records held, at most loop.max_records
	omitted tally         // counts of the records beyond them
	ev      *sdk.Evidence // the whole set summarised when records are left out
	out     output
}

// newAgentCall starts st's conversation over the records held and the
// counts of the rest, which the step passes on.
func newAgentCall(ctx context.Context, r *run, pass int, st *stepState, records []sdk.Record, omitted tally) agentCall {
	return agentCall{r: r, ctx: ctx, pass: pass, st: st, records: records, omitted: omitted,
		ev: evidence(records, omitted), out: output{Omitted: omitted}}
}

// agentFor names the agent serving role: the step's own agent for its
// role, else an agent block named after the role.
func (c *agentCall) agentFor(role string) string {
	if role == c.st.role() && c.st.step.Agent != "" {
		return c.st.step.Agent
	}
	return role
}

// configured reports whether the rules declare an agent for role, a role
// other than the step's own.
func (c *agentCall) configured(role string) bool {
	_, ok := c.r.plan.Policy.Agents[role]
	return ok && role != c.st.role()
}

// writer runs analyst → critic → writer; with force it composes the last
// draft without asking the analyst or the critic again.
func (c *agentCall) writer(force bool) (output, error) {
	r, st := c.r, c.st
	if r.hasRetrieve && len(c.records) == 0 {
		if err := tier.CheckEmpty(r.plan.Policy.Mode, 0, 0); err != nil {
			return c.out, err
		}
	}
	draft, review := st.draft, st.review
	if !force && c.configured(sdk.RoleAnalyst) {
		a, err := c.analyst(draft, review)
		if err != nil {
			return c.out, err
		}
		draft = a.Draft
		c.out.Draft = draft
		if a.Status == sdk.AnalystSearchRequired {
			c.out.Notes = append(c.out.Notes, "analyst asked for more data: "+strings.Join(a.NewQueries, "; "))
			if len(a.NewQueries) > 0 && len(r.planSources()) > 0 {
				c.out.Search = a.NewQueries // gap search before the next pass
				return c.out, nil
			}
		}
		review = nil
		// An empty draft (the analyst had no evidence to use) leaves
		// nothing to review: the writer says so directly.
		if c.configured(sdk.RoleCritic) && strings.TrimSpace(draft) != "" {
			rv, err := c.critic(draft)
			if err != nil {
				return c.out, err
			}
			review = &rv
			c.out.Review, c.out.Verdict = review, rv.Status
			if rv.Status == sdk.VerdictReject {
				c.out.Text = draft
				return c.out, nil
			}
		}
	}
	in := sdk.WriterInput{Query: r.plan.Query, Draft: draft, Review: review, Mode: r.plan.Mode, Temporal: r.intentPeriod(r.intentOf(st)), Caveats: r.writerCaveats(st), Evidence: c.ev, Depth: r.depthName(),
		Conversation: r.e.opts.Conversation}
	var w sdk.WriterOutput
	if err := c.invoke(sdk.RoleWriter, in, &w); err != nil {
		return c.out, err
	}
	c.out.Answer, c.out.Text, c.out.Draft, c.out.Review = &w, w.FinalReport, draft, review
	c.out.Records = c.records
	return c.out, nil
}

func (c *agentCall) analyst(draft string, review *sdk.CriticOutput) (sdk.AnalystOutput, error) {
	in := sdk.AnalystInput{Query: c.r.plan.Query, Mode: c.r.plan.Mode, Task: c.st.hyp.Description, Temporal: c.r.intentPeriod(c.r.intentOf(c.st)), Evidence: c.ev, Depth: c.r.depthName(),
		Conversation: c.r.e.opts.Conversation}
	if review != nil && review.Status == sdk.VerdictReject {
		in.Draft, in.Review = draft, review
	}
	var out sdk.AnalystOutput
	err := c.invoke(sdk.RoleAnalyst, in, &out)
	return out, err
}

func (c *agentCall) critic(draft string) (sdk.CriticOutput, error) {
	var out sdk.CriticOutput
	err := c.invoke(sdk.RoleCritic, sdk.CriticInput{Draft: draft, Query: c.r.plan.Query, Mode: c.r.plan.Mode, Evidence: c.ev, Depth: c.r.depthName(), Conversation: c.r.e.opts.Conversation}, &out)
	return out, err
}

func (c *agentCall) analystOnly() (output, error) {
	a, err := c.analyst(c.st.draft, c.st.review)
	if err != nil {
		return c.out, err
	}
	c.out.Draft, c.out.Text, c.out.Records = a.Draft, a.Draft, c.records
	return c.out, nil
}

func (c *agentCall) criticOnly() (output, error) {
	rv, err := c.critic(c.r.inputText(c.st))
	if err != nil {
		return c.out, err
	}
	c.out.Review, c.out.Verdict, c.out.Text, c.out.Records = &rv, rv.Status, rv.Critique, c.records
	return c.out, nil
}

// clarify runs a clarification step the rules declare: about the plan's
// first ambiguity when it has one, else about the question as a whole.
func (c *agentCall) clarify() (output, error) {
	in := sdk.ClarificationInput{Query: c.r.plan.Query, AmbiguityType: "ambiguous", Conversation: c.r.e.opts.Conversation}
	if amb := c.r.plan.Ambiguities; len(amb) > 0 {
		in.AmbiguityType, in.Entity, in.Message, in.Candidates = amb[0].Type, amb[0].Entity, amb[0].Message, amb[0].Candidates
	}
	var out sdk.ClarificationOutput
	if err := c.invoke(sdk.RoleClarification, in, &out); err != nil {
		return c.out, err
	}
	c.out.Clarify = &out
	c.out.Text = out.Question
	if len(out.Options) > 0 {
		c.out.Text += "\n- " + strings.Join(out.Options, "\n- ")
	}
	c.out.Records = c.records
	return c.out, nil
}

// invoke calls role's agent with input and decodes its answer into out. The
// answer must match the role's schema; malformed JSON goes through
// jsonrepair, and an answer that still does not fit is asked for once more
// before the call fails.
func (c *agentCall) invoke(role string, input any, out any) error {
	return c.ask(role, input, out, 2)
}

// ask is invoke with at most tries calls.
func (c *agentCall) ask(role string, input any, out any, tries int) error {
	r := c.r
	schema := roleSchemas[role]
	agent := c.agentFor(role)
	inJSON, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("agent %q (%s): encode input: %w", agent, role, err)
	}
	instr, err := r.instructions(role, promptData{
		Query: r.plan.Query, Mode: r.plan.Mode, Role: role, Task: c.st.hyp.Description, Step: c.st.id, Pass: c.pass,
		Input: input, Records: c.records, Trace: c.st.traceSummary, Corrections: c.st.corrections,
	})
	if err != nil {
		return err
	}
	schemaJSON, ok := schemaJSONs()[role]
	if !ok {
		schemaJSON = schema.schemaJSON()
	}
	req := sdk.InvokeRequest{Role: role, Instructions: instr, Input: inJSON, Context: fitContext(c.records), Schema: schemaJSON}
	var lastErr error
	for attempt := 1; attempt <= tries; attempt++ {
		call := history.AgentCall{Iteration: c.pass, Step: c.st.id, Agent: agent, Role: role, Attempt: attempt,
			InputPrompt: req.Instructions, Input: inJSON, Timestamp: r.e.opts.Clock()}
		resp, err := c.call(agent, req)
		c.out.Calls++
		if err != nil {
			call.Error = r.redactErr(err).Error()
			r.logAgent(call)
			return fmt.Errorf("agent %q (%s): %w", agent, role, err)
		}
		r.countUsage(resp.Usage)
		call.PromptTokens = resp.Usage.PromptTokens
		repaired, err := decodeOutput(schema, resp.Output, out)
		// An answer decoded as it came is valid JSON: no need to scan it again.
		if (err == nil && !repaired) || json.Valid(resp.Output) {
			call.Output = resp.Output
		} else {
			call.RawOutput = string(resp.Output)
		}
		call.Repaired = repaired
		if err == nil {
			r.logAgent(call)
			return nil
		}
		call.Error = err.Error()
		r.logAgent(call)
		lastErr = err
		req.Instructions = instr + "\n\nYour previous answer was rejected (" + err.Error() +
			"). Answer again with only a JSON object that matches the schema."
	}
	if tries == 1 {
		return fmt.Errorf("agent %q (%s): output rejected: %w", agent, role, lastErr)
	}
	return fmt.Errorf("agent %q (%s): output rejected after a retry: %w", agent, role, lastErr)
}

// maxContextBytes bounds the records of one agent request, well under the
// protocol's 64 MiB message limit: loop.max_records bounds how many, this
// how large (records with huge bodies).
const maxContextBytes = 16 << 20

// fitContext is the first of recs whose text fits maxContextBytes.
func fitContext(recs []sdk.Record) []sdk.Record {
	size := 0
	for i, r := range recs {
		size += len(r.ID) + len(r.Source) + len(r.Kind) + len(r.Title) + len(r.Body) + len(r.URL) + len(r.Author) + 64*(len(r.Fields)+1)
		for _, v := range r.Fields {
			if s, ok := v.(string); ok {
				size += len(s)
			}
		}
		if size > maxContextBytes {
			return recs[:i]
		}
	}
	return recs
}

// call invokes the agent with a deadline from the remaining budget and
// the agent's own timeout.
func (c *agentCall) call(agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	t, deadline := c.r.e.opts.Time, c.r.deadline
	if a := c.r.plan.Policy.Agents[agent]; a.Timeout > 0 {
		if own := t.Now().Add(a.Timeout); own.Before(deadline) {
			deadline = own
		}
	}
	ctx, cancel := t.WithDeadline(c.ctx, deadline)
	defer cancel()
	return c.r.e.agents.Invoke(ctx, agent, req)
}

// decodeOutput checks raw against schema, repairing malformed JSON once.
func decodeOutput(schema roleSchema, raw []byte, out any) (repaired bool, err error) {
	if err = schema.decode(raw, out); err == nil {
		return false, nil
	}
	fixed, rerr := jsonrepair.Repair(raw)
	if rerr != nil {
		return false, fmt.Errorf("%w (repair: %v)", err, rerr)
	}
	if err2 := schema.decode(fixed, out); err2 != nil {
		return true, err2
	}
	return true, nil
}

func (r *run) countUsage(u sdk.Usage) {
	r.mu.Lock()
	r.promptTok += u.PromptTokens
	r.complTok += u.CompletionTokens
	r.mu.Unlock()
}

func (r *run) logAgent(call history.AgentCall) {
	if r.logs == nil {
		return
	}
	if err := r.logs.LogAgent(call); err != nil {
		r.e.opts.Logger.Warn("iteration log", "err", err)
	}
}
