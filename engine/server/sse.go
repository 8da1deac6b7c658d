package server

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine/runner"
)

// eventNames are the SSE event names of the runner's progress kinds.
var eventNames = map[string]string{
	"pass":   "pass",
	"start":  "step_start",
	"end":    "step_end",
	"refine": "refinement",
	"depth":  "depth",
	"done":   "done",
}

// progress is the data of a progress event.
type progress struct {
	Pass        int    `json:"pass,omitempty"`
	Step        string `json:"step,omitempty"`
	Description string `json:"description,omitempty"`
	Status      string `json:"status,omitempty"`
	Detail      string `json:"detail,omitempty"`
}

// writeTimeout bounds sending one event to a client.
const writeTimeout = 30 * time.Second

// acceptsEvents reports whether the client asked for Server-Sent Events.
func acceptsEvents(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		if t, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && t == "text/event-stream" {
			return true
		}
	}
	return false
}

// eventStream writes a run's events as Server-Sent Events. Its headers
// go out when the run is accepted, queued or not, so a question refused
// before that (a bad mode, a full queue) is answered with a plain error
// instead.
type eventStream struct {
	w       http.ResponseWriter
	started bool
}

func newEventStream(w http.ResponseWriter) *eventStream { return &eventStream{w: w} }

// start sends the headers and the run event, naming the run.
func (e *eventStream) start(run Run) {
	e.started = true
	h := e.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Nous-Run-Id", run.ID)
	h.Set("Location", "/v1/runs/"+run.ID)
	e.w.WriteHeader(http.StatusOK)
	e.write("run", mustJSON(map[string]string{"id": run.ID}))
}

// event sends one progress event.
func (e *eventStream) event(ev runner.Event) {
	e.write(eventNames[ev.Kind], mustJSON(progress{Pass: ev.Pass, Step: ev.Step, Description: ev.Description,
		Status: ev.Status, Detail: ev.Detail}))
}

// result ends the stream with the run's output (in the asked format), or
// an error event, with the plan's diagnostics, when the question did not
// run.
func (e *eventStream) result(a Answer) {
	if !e.started {
		e.start(a.Run)
	}
	if a.Output == nil {
		e.write("error", mustJSON(apiError{Error: a.Run.Error, Diagnostics: a.Diagnostics}))
		return
	}
	e.write("result", a.Output)
}

// write sends one event; every line of data is a data field.
func (e *eventStream) write(name string, data []byte) {
	var b bytes.Buffer
	b.WriteString("event: ")
	b.WriteString(name)
	b.WriteByte('\n')
	for line := range bytes.Lines(bytes.TrimRight(data, "\n")) {
		b.WriteString("data: ")
		b.Write(bytes.TrimRight(line, "\r\n"))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	// A client that stops reading must not hold the run: each event has
	// writeTimeout to go out, after which the connection fails and the
	// run is cancelled through the request's context.
	rc := http.NewResponseController(e.w)
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, _ = e.w.Write(b.Bytes())
	_ = rc.Flush()
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the event types always marshal
	}
	return b
}
