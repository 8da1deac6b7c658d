package server

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
)

// Bounds of GET /v1/runs?limit=N.
const (
	defaultListed = 50
	maxListed     = 1000
)

// listRuns is GET /v1/runs: the queued and running runs, then the recent
// ended ones.
func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) {
	n := defaultListed
	if v := r.URL.Query().Get("limit"); v != "" {
		l, err := strconv.Atoi(v)
		if err != nil || l < 1 || l > maxListed {
			writeError(w, http.StatusBadRequest, "limit %q: want a number from 1 to %d", v, maxListed)
			return
		}
		n = l
	}
	writeJSON(w, http.StatusOK, map[string][]Run{"runs": s.runs.recent(n)})
}

// getRun is GET /v1/runs/{id}: the run and, once it ended, its output.
func (s *Server) getRun(w http.ResponseWriter, r *http.Request) {
	d, ok := s.runs.get(r.PathValue("id"))
	if !ok {
		writeError(w, http.StatusNotFound, "no run %q (finished runs are kept up to %d)", r.PathValue("id"), s.cfg.KeepRuns)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// cancelRun is DELETE /v1/runs/{id}: it cancels a running run, which ends
// as cancelled with its partial history, or a queued one, which leaves the
// queue and ends as cancelled without having run a step.
func (s *Server) cancelRun(w http.ResponseWriter, r *http.Request) {
	run, ok, active := s.runs.cancel(r.PathValue("id"))
	switch {
	case !ok:
		writeError(w, http.StatusNotFound, "no run %q", r.PathValue("id"))
	case !active:
		writeJSON(w, http.StatusConflict, apiError{Error: "run " + run.ID + " already ended: " + run.Status})
	default:
		writeJSON(w, http.StatusAccepted, run)
	}
}

// sortByStart orders runs newest first.
func sortByStart(runs []Run) {
	slices.SortFunc(runs, func(a, b Run) int {
		return cmp.Or(b.StartedAt.Compare(a.StartedAt), cmp.Compare(b.ID, a.ID))
	})
}
