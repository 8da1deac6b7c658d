package server

import (
	"bytes"
	"net/http"
	"sync/atomic"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
)

// plan is POST /v1/plan: the request of `nous plan --input`, the plan of
// `nous plan --format json`. A plan with error diagnostics is still a
// plan: 200, its diagnostics say what is wrong.
func (s *Server) plan(w http.ResponseWriter, r *http.Request) {
	req, err := engine.DecodeRequest(r.Body)
	if !bodyError(w, err) {
		return
	}
	snap, release := s.cfg.Snapshots.Acquire()
	defer release()
	planner := s.planners.get(snap)
	if err := planner.CheckMode(req.Mode); err != nil {
		writeError(w, http.StatusBadRequest, "mode: %v", err)
		return
	}
	plan, err := planner.Plan(r.Context(), req)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", snap.Redactor.Error(err))
		return
	}
	// As `nous plan`: the sources are checked as the rules configure them.
	engine.ValidatePlan(plan, engine.SourceFactsFromRules(snap.Rules))
	var out bytes.Buffer
	if err := render.Write(&out, plan, "json", snap.Redactor); err != nil {
		writeError(w, http.StatusInternalServerError, "rendering the plan: %v", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out.Bytes())
}

// plannerCache keeps the planner of the snapshot last planned with: a
// planner compiles the rules' templates once, and snapshots change only
// on reload.
type plannerCache struct{ last atomic.Pointer[snapPlanner] }

type snapPlanner struct {
	snap    *Snapshot
	planner *engine.Planner
}

func (c *plannerCache) get(snap *Snapshot) *engine.Planner {
	if p := c.last.Load(); p != nil && p.snap == snap {
		return p.planner
	}
	p := &snapPlanner{snap: snap, planner: engine.NewPlanner(snap.Rules)}
	c.last.Store(p)
	return p.planner
}
