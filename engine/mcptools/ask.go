package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/server"
)

var askTool = mcp.Tool{
	Name:  "ask",
	Title: "Ask nous a question about the project",
	Description: `Answers a question about the software project from its history (commits, merge
requests, issues, documents) as ` + "`nous ask`" + ` does: the question becomes a plan of
hypotheses, each checked against the records the configured sources return, and the
findings are written up as a report with evidence and caveats.

Use it for questions such as "what changed last week?", "who changed hclsyntax the
most?", "which merge requests touched the parser in March?". The text content is the
report in Markdown; the structured content has the run's status (success, partial,
failed, cancelled or needs_clarification: then the report is the question to answer
first) and the full result as ` + "`nous ask --format json`" + ` prints it. Progress
notifications follow the run's passes and steps when the call has a progress token;
cancelling the call ends the run with what it found so far.`,
	Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
}

// AskInput is the ask tool's input.
type AskInput struct {
	Query string `json:"query" jsonschema:"the question, in plain words, e.g. 'what changed last week?'"`
	Mode  string `json:"mode,omitempty" jsonschema:"a reasoning mode the rules define (the defaults: strict, monitor, discovery); empty lets the rules choose"`
	Trace bool   `json:"trace,omitempty" jsonschema:"append the reasoning trace (what each step concluded and why) to the report"`
}

// AskOutput is the ask tool's structured result.
type AskOutput struct {
	RunID  string          `json:"run_id" jsonschema:"the run's ID (GET /v1/runs/{id} on nous serve; the log's name under --log-dir)"`
	Status string          `json:"status" jsonschema:"how the run ended: success, partial, failed, cancelled or needs_clarification"`
	Result json.RawMessage `json:"result" jsonschema:"the run as nous ask --format json prints it: plan, result (report, answers, steps, evidence records, caveats), history and trace"`
}

// ask runs the question through the service, telling the client each run
// event as progress.
func (t tools) ask(ctx context.Context, req *mcp.CallToolRequest, in AskInput) (*mcp.CallToolResult, AskOutput, error) {
	var watch server.Watch
	if token := req.Params.GetProgressToken(); token != nil {
		p := progress{ctx: ctx, session: req.Session, token: token}
		watch = server.Watch{Started: p.started, Progress: p.event}
	}
	a, err := t.srv.Ask(ctx, server.AskRequest{Query: in.Query, Mode: in.Mode, Format: "markdown", Trace: in.Trace}, watch)
	if err != nil {
		return nil, AskOutput{}, askError(err)
	}
	if a.Result == nil {
		return nil, AskOutput{}, notRun(a)
	}
	res := text(string(a.Output))
	// A run that failed or was cancelled answers with what it found, and
	// says so, as `nous ask` exits 1.
	res.IsError = a.Run.Status == runner.ResultFailed || a.Run.Status == runner.ResultCancelled
	return res, AskOutput{RunID: a.Run.ID, Status: a.Run.Status, Result: a.JSON}, nil
}

// askError says why a question did not start, naming the field at fault.
func askError(err error) error {
	var re *server.RequestError
	switch {
	case errors.As(err, &re):
		return err
	case errors.Is(err, server.ErrBusy):
		return fmt.Errorf("%w; ask again in a moment", err)
	}
	return fmt.Errorf("the question did not start: %w", err)
}

// notRun says why a question did not run: the masked error and the
// diagnostics of a plan the rules cannot run.
func notRun(a server.Answer) error {
	var b strings.Builder
	b.WriteString("the question did not run: ")
	b.WriteString(a.Run.Error)
	for _, d := range a.Diagnostics {
		fmt.Fprintf(&b, "\n- %s: %s", d.Code, d.Message)
	}
	return errors.New(b.String())
}

// progress tells a client a run's events as MCP progress notifications.
// The service calls it from one goroutine.
type progress struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any
	n       float64
}

func (p *progress) started(run server.Run) { p.notify("run " + run.ID + " started") }

func (p *progress) event(ev runner.Event) { p.notify(describe(ev)) }

// notify sends one notification; the progress count grows with each, as
// the protocol asks. A client gone away is not the run's concern.
func (p *progress) notify(msg string) {
	p.n++
	_ = p.session.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Progress: p.n, Message: msg})
}

// describe is one line about ev, as `nous ask` prints progress.
func describe(ev runner.Event) string {
	switch ev.Kind {
	case "pass":
		return fmt.Sprintf("pass %d", ev.Pass)
	case "start":
		return fmt.Sprintf("%s started: %s", ev.Step, ev.Description)
	case "end":
		return joinDetail(fmt.Sprintf("%s %s", ev.Step, ev.Status), ev.Detail)
	case "refine":
		return joinDetail(fmt.Sprintf("%s %s", ev.Step, ev.Status), ev.Detail)
	case "depth":
		return "depth " + ev.Detail
	case "done":
		return joinDetail("run "+ev.Status, ev.Detail)
	}
	return joinDetail(ev.Kind+" "+ev.Step, ev.Detail)
}

func joinDetail(s, detail string) string {
	if detail == "" {
		return s
	}
	return s + ": " + detail
}
