package server

import (
	"net/http"
	"time"

	"github.com/nous-dev/nous/engine/runner"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// durationBuckets span a run or step: from a warm plan-only answer to the
// longest loop TTL.
var durationBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300}

// Metrics are what GET /metrics exposes: runs by status, run and step
// durations, refused runs and rule reloads, with the Go and process
// collectors. Their own collectors (the plugins') are added with Register.
type Metrics struct {
	registry *prometheus.Registry
	runs     *prometheus.CounterVec
	runTime  *prometheus.HistogramVec
	stepTime *prometheus.HistogramVec
	refused  prometheus.Counter
	reloads  *prometheus.CounterVec
	plans    [2]prometheus.Counter // POST /v1/plan answers: computed, from the cache
}

func newMetrics(s *Server) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nous_runs_total",
			Help: "Runs ended, by status (success, partial, failed, cancelled, needs_clarification)."}, []string{"status"}),
		runTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nous_run_duration_seconds",
			Help: "How long runs took, by status.", Buckets: durationBuckets}, []string{"status"}),
		stepTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "nous_step_duration_seconds",
			Help: "How long plan steps took in a pass, by the status they ended with.", Buckets: durationBuckets}, []string{"status"}),
		refused: prometheus.NewCounter(prometheus.CounterOpts{Name: "nous_runs_refused_total",
			Help: "Runs refused with 429: every slot taken and the queue full."}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nous_rules_reloads_total",
			Help: "Rule reloads, by outcome (ok: swapped in; error: the last good rules kept)."}, []string{"outcome"}),
	}
	plans := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "nous_plans_total",
		Help: "POST /v1/plan answers, by whether the plan was computed (miss) or the cached answer to the same body on the same rules (hit)."}, []string{"cache"})
	m.plans = [2]prometheus.Counter{plans.WithLabelValues("miss"), plans.WithLabelValues("hit")}
	m.registry.MustRegister(m.runs, m.runTime, m.stepTime, m.refused, m.reloads, plans,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "nous_runs_in_flight", Help: "Runs executing now."},
			func() float64 { return float64(len(s.slots.slots)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "nous_runs_queued", Help: "Runs waiting for a slot."},
			func() float64 { return float64(s.slots.waiting.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "nous_runs_stored", Help: "Runs kept for GET /v1/runs."},
			func() float64 { n, _ := s.runs.size(); return float64(n) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "nous_runs_stored_bytes", Help: "Bytes of the ended runs kept."},
			func() float64 { _, b := s.runs.size(); return float64(b) }),
	)
	return m
}

// Reloaded counts one reload of the rules: ok when it was swapped in.
func (m *Metrics) Reloaded(ok bool) {
	outcome := "ok"
	if !ok {
		outcome = "error"
	}
	m.reloads.WithLabelValues(outcome).Inc()
}

// Register adds collectors, e.g. the plugin host's calls and restarts.
func (m *Metrics) Register(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := m.registry.Register(c); err != nil {
			return err
		}
	}
	return nil
}

func (m *Metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// planCache counts a /v1/plan answer, hit when it came from the cache.
func (m *Metrics) planCache(hit bool) {
	i := 0
	if hit {
		i = 1
	}
	m.plans[i].Inc()
}

// ran counts a run that ended with status after d.
func (m *Metrics) ran(status string, d time.Duration) {
	m.runs.WithLabelValues(status).Inc()
	m.runTime.WithLabelValues(status).Observe(d.Seconds())
}

// stepTimer times a run's steps from its progress events; the runner
// tells them from one goroutine.
type stepTimer struct {
	m       *Metrics
	started map[string]time.Time // by step
}

func (m *Metrics) stepTimer() *stepTimer { return &stepTimer{m: m, started: map[string]time.Time{}} }

func (t *stepTimer) event(ev runner.Event) {
	switch ev.Kind {
	case "start":
		t.started[ev.Step] = time.Now()
	case "end":
		if at, ok := t.started[ev.Step]; ok {
			t.m.stepTime.WithLabelValues(ev.Status).Observe(time.Since(at).Seconds())
			delete(t.started, ev.Step)
		}
	}
}
