package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// apiError is the body of every error response.
type apiError struct {
	Error       string           `json:"error"`
	Diagnostics []PlanDiagnostic `json:"diagnostics,omitempty"`
}

// PlanDiagnostic is one error of a plan the rules cannot run.
type PlanDiagnostic struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the client went away: nothing to tell it
}

func writeError(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, apiError{Error: fmt.Sprintf(format, args...)})
}

// decodeBody decodes the JSON body of r into v, refusing unknown fields;
// it answers the client itself (413 or 400) and reports false when the
// body is not what the route takes.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	return bodyError(w, err)
}

// bodyError answers a body that could not be read or decoded: 413 beyond
// the size limit, else 400. It reports whether err was nil.
func bodyError(w http.ResponseWriter, err error) bool {
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, "the request body is larger than %d bytes", tooLarge.Limit)
	default:
		writeError(w, http.StatusBadRequest, "request body: %v", err)
	}
	return false
}
