package server

import (
	"errors"
	"net/http"

	"github.com/nous-dev/nous/engine/ask"
)

// retryAfter is what a refused run is told to wait, in seconds.
const retryAfter = "2"

// ask is POST /v1/ask: it runs the question as `nous ask` does and answers
// with what `nous ask --format F` prints, or streams the run's events
// first when the client accepts text/event-stream.
func (s *Server) ask(w http.ResponseWriter, r *http.Request) {
	var req AskRequest
	if !decodeBody(w, r, &req) {
		return
	}
	var watch Watch
	var sse *eventStream
	if acceptsEvents(r) {
		sse = newEventStream(w)
		watch = Watch{Started: sse.start, Progress: sse.event}
	}
	a, err := s.Ask(r.Context(), req, watch)
	switch {
	case err != nil:
		writeAskError(w, err)
	case sse != nil:
		sse.result(a)
	case a.Output == nil:
		writeRunError(w, a)
	default:
		w.Header().Set("Location", "/v1/runs/"+a.Run.ID)
		w.Header().Set("Nous-Run-Id", a.Run.ID)
		w.Header().Set("Content-Type", contentType(req.Format))
		_, _ = w.Write(a.Output)
	}
}

// writeAskError answers a question Ask did not start.
func writeAskError(w http.ResponseWriter, err error) {
	var re *RequestError
	switch {
	case errors.As(err, &re):
		writeError(w, http.StatusBadRequest, "%v", re)
	case errors.Is(err, ErrBusy):
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusTooManyRequests, "%v", err)
	case errors.Is(err, ErrDraining):
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	default:
		writeError(w, http.StatusInternalServerError, "%v", err)
	}
}

// writeRunError answers a question that did not run: 422 for a plan with
// errors, 400 for a question the rules cannot plan, 500 for anything else.
func writeRunError(w http.ResponseWriter, a Answer) {
	var pe *ask.PlanError
	code := http.StatusInternalServerError
	switch {
	case len(a.Diagnostics) > 0:
		code = http.StatusUnprocessableEntity
	case errors.As(a.Err, &pe):
		code = http.StatusBadRequest
	}
	writeJSON(w, code, apiError{Error: a.Run.Error, Diagnostics: a.Diagnostics})
}

// contentType is the media type of a report format.
func contentType(format string) string {
	switch format {
	case "markdown":
		return "text/markdown; charset=utf-8"
	case "text":
		return "text/plain; charset=utf-8"
	}
	return "application/json"
}
