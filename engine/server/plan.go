package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
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
	out := planBuffers.Get().(*bytes.Buffer)
	defer releasePlanBuffer(out)
	out.Reset()
	err = s.writePlan(r.Context(), out, req)
	var re *RequestError
	switch {
	case errors.As(err, &re):
		writeError(w, http.StatusBadRequest, "%v", re)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "%v", err)
	default:
		// With its length, net/http sends the plan in one piece rather
		// than chunked (it buffers 2 kB before it would know the length).
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(out.Len()))
		_, _ = w.Write(out.Bytes())
	}
}

// planBuffers are the plans' response buffers, reused across requests.
var planBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledPlan bounds the buffers kept: a rare huge plan's is left to the
// collector.
const maxPooledPlan = 1 << 20

func releasePlanBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooledPlan {
		planBuffers.Put(b)
	}
}

// Plan plans req on the current rules as `nous plan` does and returns what
// `nous plan --format json` prints. A question the rules cannot plan is a
// *RequestError; a plan with error diagnostics is still a plan.
func (s *Server) Plan(ctx context.Context, req engine.Request) ([]byte, error) {
	var out bytes.Buffer
	if err := s.writePlan(ctx, &out, req); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// writePlan is Plan writing to out.
func (s *Server) writePlan(ctx context.Context, out *bytes.Buffer, req engine.Request) error {
	snap, release := s.cfg.Snapshots.Acquire()
	defer release()
	sp := s.planners.entry(snap)
	planner := sp.planner
	if err := planner.CheckMode(req.Mode); err != nil {
		return &RequestError{Field: "mode", Msg: err.Error()}
	}
	plan, err := planner.Plan(ctx, req)
	if err != nil {
		return &RequestError{Msg: snap.Redactor.Error(err).Error()}
	}
	// As `nous plan`: the sources are checked as the rules configure them.
	engine.ValidatePlan(plan, sp.facts)
	if err := render.Write(out, plan, "json", snap.Redactor); err != nil {
		return fmt.Errorf("rendering the plan: %w", err)
	}
	return nil
}

// plannerCache keeps the planner of the snapshot last planned with: a
// planner compiles the rules' templates once, and snapshots change only
// on reload.
type plannerCache struct{ last atomic.Pointer[snapPlanner] }

type snapPlanner struct {
	snap    *Snapshot
	planner *engine.Planner
	facts   []engine.SourceFacts // the sources as the rules configure them; ValidatePlan only reads them
}

func (c *plannerCache) get(snap *Snapshot) *engine.Planner { return c.entry(snap).planner }

func (c *plannerCache) entry(snap *Snapshot) *snapPlanner {
	if p := c.last.Load(); p != nil && p.snap == snap {
		return p
	}
	p := &snapPlanner{snap: snap, planner: engine.NewPlanner(snap.Rules), facts: engine.SourceFactsFromRules(snap.Rules)}
	c.last.Store(p)
	return p
}
