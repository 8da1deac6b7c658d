package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	out, err := s.Plan(r.Context(), req)
	var re *RequestError
	switch {
	case errors.As(err, &re):
		writeError(w, http.StatusBadRequest, "%v", re)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "%v", err)
	default:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	}
}

// Plan plans req on the current rules as `nous plan` does and returns what
// `nous plan --format json` prints. A question the rules cannot plan is a
// *RequestError; a plan with error diagnostics is still a plan.
func (s *Server) Plan(ctx context.Context, req engine.Request) ([]byte, error) {
	snap, release := s.cfg.Snapshots.Acquire()
	defer release()
	planner := s.planners.get(snap)
	if err := planner.CheckMode(req.Mode); err != nil {
		return nil, &RequestError{Field: "mode", Msg: err.Error()}
	}
	plan, err := planner.Plan(ctx, req)
	if err != nil {
		return nil, &RequestError{Msg: snap.Redactor.Error(err).Error()}
	}
	// As `nous plan`: the sources are checked as the rules configure them.
	engine.ValidatePlan(plan, engine.SourceFactsFromRules(snap.Rules))
	var out bytes.Buffer
	if err := render.Write(&out, plan, "json", snap.Redactor); err != nil {
		return nil, fmt.Errorf("rendering the plan: %w", err)
	}
	return out.Bytes(), nil
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
