package server

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/sdk/redact"
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

// acceptsEvents reports whether the client asked for Server-Sent Events.
func acceptsEvents(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		if t, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && t == "text/event-stream" {
			return true
		}
	}
	return false
}

// eventStream writes a run's events as Server-Sent Events. Its headers go
// out with the first event, so a question that does not run is answered
// with a plain error instead.
type eventStream struct {
	w       http.ResponseWriter
	id      string
	started bool
}

func newEventStream(w http.ResponseWriter, id string) *eventStream {
	return &eventStream{w: w, id: id}
}

// start sends the headers and the run event, naming the run.
func (e *eventStream) start() {
	if e.started {
		return
	}
	e.started = true
	h := e.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Nous-Run-Id", e.id)
	h.Set("Location", "/v1/runs/"+e.id)
	e.w.WriteHeader(http.StatusOK)
	e.write("run", mustJSON(map[string]string{"id": e.id}))
}

// event sends one progress event, masked by red.
func (e *eventStream) event(ev runner.Event, red *redact.Redactor) {
	e.start()
	e.write(eventNames[ev.Kind], mustJSON(progress{Pass: ev.Pass, Step: ev.Step, Description: red.String(ev.Description),
		Status: ev.Status, Detail: red.String(ev.Detail)}))
}

// result ends the stream with the run's output (in the asked format), or
// an error event when the question did not run.
func (e *eventStream) result(run Run, out []byte) {
	e.start()
	if out == nil {
		e.write("error", mustJSON(apiError{Error: run.Error}))
		return
	}
	e.write("result", out)
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
	_, _ = e.w.Write(b.Bytes()) // a client gone cancels the run through its context
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the event types always marshal
	}
	return b
}
