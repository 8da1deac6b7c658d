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

	"github.com/maypok86/otter/v2"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
)

// plan is POST /v1/plan: the request of `nous plan --input`, the plan of
// `nous plan --format json`. A plan with error diagnostics is still a
// plan: 200, its diagnostics say what is wrong.
//
// A plan is a function of the rules and the request alone (engine.Planner
// promises the same plan for the same request), so the answer to a body
// already planned on the current rules is served from a small cache, as a
// database reuses the plan of a statement it has seen: dashboards and
// front ends ask the same few questions over and over.
func (s *Server) plan(w http.ResponseWriter, r *http.Request) {
	body := planBuffers.Get().(*bytes.Buffer)
	defer releasePlanBuffer(body)
	body.Reset()
	if _, err := body.ReadFrom(r.Body); !bodyError(w, err) {
		return
	}
	snap, release := s.cfg.Snapshots.Acquire()
	defer release()
	sp := s.planners.entry(snap)
	if cached, ok := sp.plans.GetIfPresent(string(body.Bytes())); ok {
		s.metrics.planCache(true)
		writePlanBytes(w, cached)
		return
	}
	s.metrics.planCache(false)
	req, err := engine.DecodeRequest(bytes.NewReader(body.Bytes()))
	if !bodyError(w, err) {
		return
	}
	out := planBuffers.Get().(*bytes.Buffer)
	defer releasePlanBuffer(out)
	out.Reset()
	err = writePlan(r.Context(), out, snap, sp, req)
	var re *RequestError
	switch {
	case errors.As(err, &re):
		writeError(w, http.StatusBadRequest, "%v", re)
	case err != nil:
		writeError(w, http.StatusInternalServerError, "%v", err)
	default:
		if body.Len()+out.Len() <= maxCachedPlan {
			sp.plans.Set(body.String(), bytes.Clone(out.Bytes()))
		}
		writePlanBytes(w, out.Bytes())
	}
}

// writePlanBytes answers with a rendered plan. With its length, net/http
// sends the plan in one piece rather than chunked (it buffers 2 kB before
// it would know the length).
func writePlanBytes(w http.ResponseWriter, plan []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(plan)))
	_, _ = w.Write(plan)
}

// The plan cache of a ruleset holds planCacheBytes of requests and their
// plans (the default rules' plans are 2–8 kB), none larger than
// maxCachedPlan. An entry is keyed by the request's bytes: a body spelled
// differently is planned again, which costs time, never a wrong answer.
const (
	planCacheBytes = 8 << 20
	maxCachedPlan  = 128 << 10
)

// newPlanCache is an empty plan cache. Otter evicts by frequency as well as
// recency, so a burst of one-off questions does not push out the ones
// dashboards ask all day.
func newPlanCache() *otter.Cache[string, []byte] {
	return otter.Must(&otter.Options[string, []byte]{
		MaximumWeight: planCacheBytes,
		Weigher:       func(req string, plan []byte) uint32 { return uint32(len(req) + len(plan)) },
	})
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
	snap, release := s.cfg.Snapshots.Acquire()
	defer release()
	var out bytes.Buffer
	if err := writePlan(ctx, &out, snap, s.planners.entry(snap), req); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// writePlan is Plan on snap writing to out.
func writePlan(ctx context.Context, out *bytes.Buffer, snap *Snapshot, sp *snapPlanner, req engine.Request) error {
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

// plannerCache keeps the planner of the snapshot last planned with, and
// its plans: a planner compiles the rules' templates once, and snapshots
// change only on reload.
type plannerCache struct{ last atomic.Pointer[snapPlanner] }

type snapPlanner struct {
	snap    *Snapshot
	planner *engine.Planner
	facts   []engine.SourceFacts         // the sources as the rules configure them; ValidatePlan only reads them
	plans   *otter.Cache[string, []byte] // rendered plans by request body
}

func (c *plannerCache) get(snap *Snapshot) *engine.Planner { return c.entry(snap).planner }

func (c *plannerCache) entry(snap *Snapshot) *snapPlanner {
	if p := c.last.Load(); p != nil && p.snap == snap {
		return p
	}
	p := &snapPlanner{snap: snap, planner: engine.NewPlanner(snap.Rules), facts: engine.SourceFactsFromRules(snap.Rules), plans: newPlanCache()}
	c.last.Store(p)
	return p
}
