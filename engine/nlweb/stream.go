package nlweb

import (
	"bytes"
	"cmp"
	"encoding/json"
	"net/http"
	"time"

	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/server"
)

// writeTimeout bounds sending one message to a client: one that stops
// reading does not hold its run.
const writeTimeout = 30 * time.Second

// message is one message of the stream; message_type says which fields
// it has.
type message struct {
	Type    string            `json:"message_type"`
	QueryID string            `json:"query_id,omitempty"`
	Message string            `json:"message,omitempty"`
	Results []json.RawMessage `json:"results,omitempty"` // result_batch
	Answer  string            `json:"answer,omitempty"`  // nlws
	Items   []json.RawMessage `json:"items,omitempty"`   // nlws
}

// stream answers as Server-Sent Events, one NLWeb message each: the run's
// progress as intermediate_message, then the summary (summarize) or the
// answer with its Items (generate), the Items as one result_batch (list,
// summarize), and complete; error when the question did not run.
func stream(w http.ResponseWriter, r *http.Request, a Asker, q query) {
	out := &messages{w: w}
	watch := server.Watch{
		Started: func(run server.Run) {
			out.id = cmp.Or(q.ID, run.ID)
			w.Header().Set("Nous-Run-Id", run.ID)
			out.start()
		},
		Progress: func(ev runner.Event) {
			if text := progressText(ev); text != "" {
				out.send(message{Type: "intermediate_message", Message: text})
			}
		},
	}
	ans, err := a.Ask(r.Context(), askRequest(q), watch)
	if err != nil {
		code, msg := refused(err)
		writeJSON(w, code, map[string]string{"error": msg})
		return
	}
	out.id = cmp.Or(out.id, q.ID, ans.Run.ID)
	out.start()
	items, err := resultItems(ans)
	switch {
	case err != nil:
		out.send(message{Type: "error", Message: err.Error()})
	case q.Mode == modeGenerate:
		out.send(message{Type: "nlws", Answer: reportText(ans), Items: items})
	case q.Mode == modeSummarize:
		out.send(message{Type: "summary", Message: reportText(ans)})
		out.send(message{Type: "result_batch", Results: items})
	default:
		out.send(message{Type: "result_batch", Results: items})
	}
	out.send(message{Type: "complete"})
}

// progressText is a run event as one line for the user.
func progressText(ev runner.Event) string {
	switch ev.Kind {
	case "start":
		return "Looking into: " + ev.Description
	case "refine":
		return "Refining " + ev.Step + ": " + ev.Detail
	}
	return ""
}

// messages writes the stream: its headers once, then each message as one
// event.
type messages struct {
	w       http.ResponseWriter
	id      string
	started bool
}

func (m *messages) start() {
	if m.started {
		return
	}
	m.started = true
	h := m.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	m.w.WriteHeader(http.StatusOK)
}

func (m *messages) send(msg message) {
	msg.QueryID = m.id
	var b bytes.Buffer
	b.WriteString("data: ")
	_ = json.NewEncoder(&b).Encode(msg) // the message types always encode; Encode ends the line
	b.WriteByte('\n')
	rc := http.NewResponseController(m.w)
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, _ = m.w.Write(b.Bytes()) // a client gone cancels the run through its context
	_ = rc.Flush()
}
