package durable

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// maxHistory bounds a history file read for replay: Temporal's own limit
// on a run's history is 50 MB.
const maxHistory = 64 << 20

// ReadHistory reads a run's history as `temporal workflow show --output
// json` writes it (and nous keeps it), at most 64 MiB.
func ReadHistory(r io.Reader) (*historypb.History, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHistory+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxHistory {
		return nil, fmt.Errorf("the history is larger than %d MiB, more than Temporal keeps for a run", maxHistory>>20)
	}
	h, err := client.HistoryFromJSON(bytes.NewReader(b), client.HistoryJSONOptions{})
	if err != nil {
		return nil, fmt.Errorf("not a Temporal workflow history in JSON: %w", err)
	}
	if len(h.GetEvents()) == 0 {
		return nil, errors.New("the history has no events")
	}
	return h, nil
}

// History fetches the history of workflow id (see WorkflowID).
func History(ctx context.Context, c client.Client, id string) (*historypb.History, error) {
	h := &historypb.History{}
	it := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("reading the history of %s: %w", id, err)
		}
		if h.Events = append(h.Events, ev); len(h.Events) > maxEvents {
			return nil, fmt.Errorf("the history of %s has more than %d events", id, maxEvents)
		}
	}
	return h, nil
}

// maxEvents bounds a history read from the service: Temporal's own limit.
const maxEvents = 51200

// Replay runs the workflow over a finished run's history with rs, as
// Temporal's replayer does (every activity's result is the one recorded;
// no plugin is called), and returns the result it computed. It fails when
// the workflow code or the rules would now make other calls than the
// history recorded: the run is not reproducible with them.
func Replay(rs *rules.Ruleset, red *redact.Redactor, h *historypb.History) (*runner.Result, error) {
	w := NewWorkflow(rs, red)
	var res *runner.Result
	w.done = func(r *runner.Result) { res = r }
	rp, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{DataConverter: dataConverter})
	if err != nil {
		return nil, err
	}
	register(rp, w)
	if err := rp.ReplayWorkflowHistory(log.NewStructuredLogger(slog.New(slog.DiscardHandler)), h); err != nil {
		return nil, fmt.Errorf("replaying the run: %w", err)
	}
	if res == nil {
		return nil, errors.New("the history holds no finished answer (the run was refused, failed to plan, or has not finished)")
	}
	return res, nil
}
