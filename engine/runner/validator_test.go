package runner

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const validatorRules = `
agent "validator" {
  plugin  = "builtin:template"
  timeout = "100ms"
}
validator {
  agent = "validator"
}
`

// gitCommits serves n commits from the git source.
func gitCommits(n int) *fakeSources {
	return &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return commits(n), nil },
	}}
}

// judging answers the validator role with judge's verdicts, one call per pass.
func judging(judge func(pass int, in sdk.ValidatorInput) (string, error)) *fakeAgents {
	a := standardAgents()
	a.roles[sdk.RoleValidator] = func(req sdk.InvokeRequest) (string, error) {
		var in sdk.ValidatorInput
		if err := json.Unmarshal(req.Input, &in); err != nil {
			return "", err
		}
		return judge(in.Pass, in)
	}
	return a
}

// every gives each step of the input the same verdict and deltas.
func every(in sdk.ValidatorInput, verdict string, issues []string, deltas ...sdk.Delta) string {
	out := sdk.ValidatorOutput{Steps: []sdk.StepVerdict{}}
	for _, s := range in.Steps {
		out.Steps = append(out.Steps, sdk.StepVerdict{Step: s.ID, Verdict: verdict, Issues: issues, Deltas: append([]sdk.Delta{}, deltas...)})
	}
	return mustJSON(out)
}

// only judges step id with verdict and deltas, every other step valid.
func only(in sdk.ValidatorInput, id, verdict string, deltas ...sdk.Delta) string {
	out := sdk.ValidatorOutput{Steps: []sdk.StepVerdict{}}
	for _, s := range in.Steps {
		sv := sdk.StepVerdict{Step: s.ID, Verdict: sdk.VerdictValid, Issues: []string{}, Deltas: []sdk.Delta{}}
		if s.ID == id {
			sv.Verdict, sv.Issues, sv.Deltas = verdict, []string{"too few commits for the question"}, deltas
		}
		out.Steps = append(out.Steps, sv)
	}
	return mustJSON(out)
}

// validatorFindings are the validator's findings of each pass, by step.
func validatorFindings(res *Result) []map[string]string {
	var out []map[string]string
	for _, p := range res.History.Passes {
		m := map[string]string{}
		for _, f := range p.Validation.Findings {
			if f.Check == validatorCheck {
				m[f.Step] = f.Severity
			}
		}
		out = append(out, m)
	}
	return out
}

func TestValidatorVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		verdict  string
		severity string
		status   string
	}{
		{"valid", sdk.VerdictValid, history.SeverityPass, ResultSuccess},
		{"uncertain", sdk.VerdictUncertain, history.SeverityWarn, ResultSuccess},
		{"invalid without a delta", sdk.VerdictInvalid, history.SeverityFail, ResultPartial},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := loadRules(t, validatorRules)
			agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) {
				return every(in, tc.verdict, []string{"judged " + tc.verdict}), nil
			})
			res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
			require.NoError(t, err)
			require.Len(t, res.History.Passes, 1, "no refinement pass")
			assert.Equal(t, []map[string]string{{"h0": tc.severity, "h1": tc.severity, "h2": tc.severity}}, validatorFindings(res))
			assert.Equal(t, tc.status, res.Status)

			calls := agents.requests(sdk.RoleValidator)
			require.Len(t, calls, 1, "one call per pass")
			var in sdk.ValidatorInput
			require.NoError(t, json.Unmarshal(calls[0].Input, &in))
			require.Len(t, in.Steps, 3)
			assert.Equal(t, sdk.ValidatedStep{ID: "h0", Hypothesis: "Retrieve commit data from GitLab", Action: "retrieve", Status: "completed",
				Records: 2, Kinds: map[string]int{sdk.KindCommit: 2}, Output: "retrieved 2 record(s), kept 2", Filters: map[string][]string{"projects": {"acme/pay"}, "dates": {"last week"}}}, in.Steps[0])
			assert.Equal(t, "writer", in.Steps[2].Role)
			assert.NotEmpty(t, in.Steps[2].Output)
			assert.JSONEq(t, string(roleSchemas[sdk.RoleValidator].schemaJSON()), string(calls[0].Schema))

			if tc.verdict == sdk.VerdictInvalid {
				conv := res.History.Passes[0].Convergence
				assert.False(t, conv.Converged, "a step the validator finds invalid is not converged")
				assert.Equal(t, []string{"h0", "h1", "h2"}, conv.NeedRefine)
				assert.Equal(t, history.Stalled, res.History.Termination)
				assert.Len(t, res.Records, 2, "a disputed step keeps its result")
				assert.Contains(t, res.Caveats, "The validator found step h0 (Retrieve commit data from GitLab) invalid: judged invalid (no delta suggested).")
			}
		})
	}
}

func TestValidatorDeltaRefinesAndRerunsDependents(t *testing.T) {
	rs := loadRules(t, validatorRules)
	agents := judging(func(pass int, in sdk.ValidatorInput) (string, error) {
		if pass == 1 {
			return only(in, "h0", sdk.VerdictInvalid, sdk.Delta{Op: OpModify, Step: "h0", Limit: 50, DropFilters: []string{"projects"}, Justification: "the project filter hides the commits"}), nil
		}
		return every(in, sdk.VerdictValid, nil), nil
	})
	src := gitCommits(2)
	res, err := New(src, agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)

	require.Len(t, res.History.Passes, 2)
	p1 := res.History.Passes[0]
	assert.Equal(t, []history.Refinement{{Op: OpModify, Step: "h0", DropFilters: []string{"projects"}, Limit: 50,
		Justification: "validator: the project filter hides the commits", Applied: true}}, p1.Refinements)
	assert.Contains(t, p1.Validation.Findings, history.Finding{Check: validatorCheck, Step: "h0", Severity: history.SeverityFail,
		Message: "too few commits for the question", OnFail: "refine"})
	assert.Equal(t, []string{"h0"}, p1.Convergence.NeedRefine)

	var rerun []string
	for _, s := range res.History.Passes[1].Steps {
		rerun = append(rerun, s.ID)
	}
	assert.Equal(t, []string{"h0", "h1", "h2"}, rerun, "the steps that used h0's result run again")
	reqs := src.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, 50, reqs[1].Req.Limit)
	assert.NotContains(t, reqs[1].Req.Filters, "projects")
	assert.Equal(t, history.Converged, res.History.Termination)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Len(t, agents.requests(sdk.RoleValidator), 2)
}

func TestValidatorDeltasWithinLimits(t *testing.T) {
	for _, tc := range []struct {
		name, loop, refused string
		applied             int
	}{
		{"per step", "loop {\n  max_passes = 10\n  refine_per_step = 3\n}\n", "refinement limit reached: 3 per step", 3},
		{"in total", "loop {\n  max_passes = 10\n  refine_total = 2\n}\n", "refinement limit reached: 2 in total", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := loadRules(t, validatorRules+tc.loop)
			agents := judging(func(pass int, in sdk.ValidatorInput) (string, error) {
				return only(in, "h0", sdk.VerdictInvalid, sdk.Delta{Op: OpModify, Limit: 10 * pass, Justification: "look further"}), nil
			})
			res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
			require.NoError(t, err)

			applied, refusals := 0, []string{}
			for _, p := range res.History.Passes {
				for _, ref := range p.Refinements {
					if ref.Applied {
						applied++
					} else {
						refusals = append(refusals, ref.Refused)
					}
				}
			}
			assert.Equal(t, tc.applied, applied)
			assert.Equal(t, []string{tc.refused}, refusals)
			assert.Equal(t, history.RefineLimit, res.History.Termination)
			assert.Equal(t, ResultPartial, res.Status)
			h0 := res.Steps[0]
			assert.Equal(t, engine.StatusCompleted, h0.Status, "a refused validator delta keeps the step's result")
			assert.Contains(t, res.Caveats, "The validator found step h0 (Retrieve commit data from GitLab) invalid: too few commits for the question ("+tc.refused+").")
			assert.Len(t, res.Records, 2)
		})
	}
}

func TestValidatorDeltaNotApplied(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delta sdk.Delta
		why   string
	}{
		{"drops the asked period", sdk.Delta{Op: OpModify, DropFilters: []string{"dates"}, Justification: "widen"},
			`its delta would drop the question's "dates" filter and answer another question`},
		{"replaces the asked period away", sdk.Delta{Op: OpReplace, SetFilters: []sdk.FilterSet{{Key: "projects", Values: []string{"x"}}}, Justification: "x"},
			`its delta would drop the question's "dates" filter and answer another question`},
		{"targets another step", sdk.Delta{Op: OpModify, Step: "h2", Limit: 5, Justification: "x"}, "its delta targets h2, not the step judged"},
		{"cuts the evidence", sdk.Delta{Op: OpModify, Limit: 1, Justification: "fewer"}, "its delta would cut the step to 1 of its 2 records and answer from part of the evidence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := loadRules(t, validatorRules)
			agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) {
				return only(in, "h0", sdk.VerdictInvalid, tc.delta), nil
			})
			res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
			require.NoError(t, err)
			require.Len(t, res.History.Passes, 1)
			p := res.History.Passes[0]
			assert.Empty(t, p.Refinements)
			assert.Contains(t, p.Validation.Findings, history.Finding{Check: validatorCheck, Step: "h0", Severity: history.SeverityFail,
				Message: "too few commits for the question (" + tc.why + ")"})
			assert.Equal(t, ResultPartial, res.Status)
		})
	}
}

func TestValidatorMisbehaving(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answer   func(sdk.InvokeRequest) (string, error)
		severity string
		message  string
	}{
		{"unrepairable JSON", func(sdk.InvokeRequest) (string, error) { return "verdict: fine", nil }, history.SeverityWarn, "verdict uncertain: the validator failed"},
		{"off schema", func(sdk.InvokeRequest) (string, error) { return `{"steps":[{"step":"h0","verdict":"great"}]}`, nil }, history.SeverityWarn, `"steps[0].verdict" is "great"`},
		{"repairable JSON", func(sdk.InvokeRequest) (string, error) {
			return `{"steps":[{"step":"h0","verdict":"valid","issues":[],},{"step":"h1","verdict":"valid"},{"step":"h2","verdict":"valid"}]}`, nil
		}, history.SeverityPass, ""},
		{"error", func(sdk.InvokeRequest) (string, error) { return "", errors.New("endpoint down") }, history.SeverityWarn, "endpoint down"},
		{"panic", func(sdk.InvokeRequest) (string, error) { panic("boom") }, history.SeverityWarn, "validator panicked: boom"},
		{"no verdict for a step", func(sdk.InvokeRequest) (string, error) { return `{"steps":[]}`, nil }, history.SeverityWarn, "the validator gave no verdict on this step"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := loadRules(t, validatorRules)
			agents := standardAgents()
			agents.roles[sdk.RoleValidator] = tc.answer
			res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
			require.NoError(t, err)
			assert.Equal(t, ResultSuccess, res.Status, "a misbehaving validator never fails the run")
			require.Len(t, res.History.Passes, 1)
			var h0 history.Finding
			for _, f := range res.History.Passes[0].Validation.Findings {
				if f.Check == validatorCheck && f.Step == "h0" {
					h0 = f
				}
			}
			assert.Equal(t, tc.severity, h0.Severity)
			assert.Contains(t, h0.Message, tc.message)
			assert.Len(t, agents.requests(sdk.RoleValidator), 1, "never asked twice in a pass")
		})
	}
}

func TestValidatorTimeout(t *testing.T) {
	rs := loadRules(t, validatorRules)
	agents := &blockingValidator{fakeAgents: standardAgents()}
	res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, ResultSuccess, res.Status)
	f := res.History.Passes[0].Validation.Findings
	require.NotEmpty(t, f)
	assert.Equal(t, history.Finding{Check: validatorCheck, Step: "h0", Severity: history.SeverityWarn,
		Message: `verdict uncertain: the validator failed: agent "validator" (validator): context deadline exceeded`}, f[len(f)-3])
}

// blockingValidator answers the validator role only when its call's
// deadline (the agent's timeout) has passed.
type blockingValidator struct{ *fakeAgents }

func (b *blockingValidator) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	if req.Role != sdk.RoleValidator {
		return b.fakeAgents.Invoke(ctx, agent, req)
	}
	<-ctx.Done()
	return sdk.InvokeResponse{}, ctx.Err()
}

func TestValidatorRules(t *testing.T) {
	for _, tc := range []struct {
		name, block string
		calls       int
		steps       []string
	}{
		{"when false", "validator {\n  agent = \"validator\"\n  when  = \"pass > 1\"\n}\n", 0, nil},
		{"steps selected", "validator {\n  agent = \"validator\"\n  steps = \"step.action == 'retrieve' || step.role == 'writer'\"\n}\n", 1, []string{"h0", "h2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := loadRules(t, "agent \"validator\" { plugin = \"builtin:template\" }\n"+tc.block)
			agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) { return every(in, sdk.VerdictValid, nil), nil })
			res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
			require.NoError(t, err)
			calls := agents.requests(sdk.RoleValidator)
			require.Len(t, calls, tc.calls)
			if tc.calls == 0 {
				assert.Equal(t, []map[string]string{{}}, validatorFindings(res))
				return
			}
			var in sdk.ValidatorInput
			require.NoError(t, json.Unmarshal(calls[0].Input, &in))
			var ids []string
			for _, s := range in.Steps {
				ids = append(ids, s.ID)
			}
			assert.Equal(t, tc.steps, ids)
		})
	}
}

func TestValidatorFindingsInTrace(t *testing.T) {
	rs := loadRules(t, validatorRules)
	agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) { return only(in, "h2", sdk.VerdictUncertain), nil })
	res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	var actions []string
	for _, e := range res.Trace {
		if e.Action == "check:validator" {
			actions = append(actions, e.Thought)
		}
	}
	assert.Equal(t, []string{"validator on h0: pass", "validator on h1: pass", "validator on h2: warn"}, actions)
}

func TestValidatorNeverRefinesAFailedStep(t *testing.T) {
	rs := loadRules(t, validatorRules)
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			return nil, errors.New("git: repository is locked")
		},
	}}
	agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) {
		return only(in, "h0", sdk.VerdictInvalid, sdk.Delta{Op: OpModify, Limit: 5, Justification: "try again"}), nil
	})
	res, err := New(src, agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	p := res.History.Passes[0]
	assert.Empty(t, p.Refinements)
	assert.Contains(t, p.Validation.Findings, history.Finding{Check: validatorCheck, Step: "h0", Severity: history.SeverityFail,
		Message: "too few commits for the question (a failed step is never refined)"})
	assert.Len(t, src.requests(), 1, "the failed retrieval is not run again")
}

// FuzzValidatorOutput feeds arbitrary answers to the validator's schema:
// an answer is refused or decodes into verdicts and deltas the loop can
// use, never a panic.
func FuzzValidatorOutput(f *testing.F) {
	f.Add(`{"steps":[{"step":"h0","verdict":"valid","issues":[],"deltas":[]}]}`)
	f.Add(`{"steps":[{"step":"h0","verdict":"invalid","issues":["x"],"deltas":[{"op":"MODIFY","target_step":"h0","set_filters":[{"key":"a","values":["b"]}],"limit":3,"justification":"x"}]}]}`)
	f.Add(`{"steps":[{"step":"h0","verdict":"invalid","deltas":[{"op":"ADD","limit":-1,"justification":""}]}]}`)
	f.Add(`{"steps":[{"step":1}],"extra":null}`)
	f.Add(`[]`)
	schema := roleSchemas[sdk.RoleValidator]
	f.Fuzz(func(t *testing.T, raw string) {
		var out sdk.ValidatorOutput
		if schema.decode([]byte(raw), &out) != nil {
			return
		}
		for _, s := range out.Steps {
			require.Contains(t, []string{sdk.VerdictValid, sdk.VerdictInvalid, sdk.VerdictUncertain}, s.Verdict)
			for _, d := range s.Deltas {
				require.Contains(t, []string{OpAdd, OpModify, OpRemove, OpReplace}, d.Op)
				require.GreaterOrEqual(t, d.Limit, 0)
			}
		}
	})
}

func TestValidatorOnTheLastPass(t *testing.T) {
	rs := loadRules(t, validatorRules+"loop {\n  max_passes = 1\n}\n")
	agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) {
		return only(in, "h0", sdk.VerdictInvalid, sdk.Delta{Op: OpModify, Limit: 50, Justification: "look further"}), nil
	})
	res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	p := res.History.Passes[0]
	assert.Empty(t, p.Refinements, "no pass is left to run a refinement")
	assert.Contains(t, p.Validation.Findings, history.Finding{Check: validatorCheck, Step: "h0", Severity: history.SeverityFail,
		Message: "too few commits for the question (no pass left to refine it)"})
	assert.Equal(t, history.MaxPasses, res.History.Termination)
	assert.Equal(t, engine.StatusCompleted, res.Steps[0].Status)
	assert.Len(t, res.Records, 2, "the step keeps its result")
	assert.Equal(t, ResultPartial, res.Status)
}

func TestValidatorAnswerIsBounded(t *testing.T) {
	rs := loadRules(t, validatorRules)
	long := strings.Repeat("x", 300)
	agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) {
		issues := make([]string, 50)
		for i := range issues {
			issues[i] = long
		}
		return every(in, sdk.VerdictUncertain, issues), nil
	})
	res, err := New(gitCommits(2), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	for _, f := range res.History.Passes[0].Validation.Findings {
		if f.Check == validatorCheck {
			assert.LessOrEqual(t, utf8.RuneCountInString(f.Message), maxIssueText)
		}
	}
}
