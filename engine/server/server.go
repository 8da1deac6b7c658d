package server

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/nous-dev/nous/engine/server/viewer"
)

// Defaults of Config's zero fields.
const (
	DefaultMaxRuns   = 8
	DefaultQueue     = 32
	DefaultMaxBody   = 1 << 20
	DefaultGrace     = 30 * time.Second
	DefaultKeepRuns  = 1000
	DefaultKeepBytes = 64 << 20
)

// NoQueue as Config.Queue means no queue: a run that finds every slot
// taken is refused (429) at once. (Zero means DefaultQueue.)
const NoQueue = -1

// finishTimeout bounds how long cancelled runs may take to answer with
// their partial history once the grace period is over.
const finishTimeout = 10 * time.Second

// Config configures a Server. Zero limits take the defaults above.
type Config struct {
	Snapshots Snapshots
	LogDir    string // per-run JSON logs, as `nous ask --log-dir`; none when empty
	Token     string // bearer token every route but /healthz and /readyz requires; none when empty
	CORS      string // the one origin allowed cross-origin requests; none when empty
	MaxRuns   int    // runs executing at once
	Queue     int    // runs waiting for a slot, beyond which 429; NoQueue (any negative) for none
	MaxBody   int64  // request body bytes; beyond them 413
	Grace     time.Duration
	KeepRuns  int   // finished runs kept for GET /v1/runs
	KeepBytes int64 // their rendered bytes
	Clock     func() time.Time
	Logger    *slog.Logger
	// Mounts are front ends served beside the API (MCP, NLWeb), behind
	// the same token, CORS and body limit.
	Mounts []Mount
	// Delegate, when set, runs the questions elsewhere (nous serve
	// --temporal); the snapshots' plugins are then not called.
	Delegate Delegate
}

// Mount is a front end at a route pattern of net/http.ServeMux, built
// from the server it fronts (its Ask and Plan).
type Mount struct {
	Pattern string
	Handler func(*Server) http.Handler
}

// Server answers the /v1 API. It is safe for concurrent use.
type Server struct {
	cfg      Config
	runs     *store
	slots    *limiter
	planners plannerCache
	metrics  *Metrics
	// runCtx is the parent of every run; cancelling it ends them all with
	// their partial history (the end of the grace period).
	runCtx     context.Context
	cancelRuns context.CancelFunc
	mu         sync.Mutex
	draining   bool // no run starts any more
}

// New returns a server with cfg.
func New(cfg Config) *Server {
	cfg.MaxRuns = orDefault(cfg.MaxRuns, DefaultMaxRuns)
	if cfg.Queue < 0 {
		cfg.Queue = 0 // NoQueue
	} else {
		cfg.Queue = orDefault(cfg.Queue, DefaultQueue)
	}
	cfg.MaxBody = orDefault(cfg.MaxBody, DefaultMaxBody)
	cfg.Grace = orDefault(cfg.Grace, DefaultGrace)
	cfg.KeepRuns = orDefault(cfg.KeepRuns, DefaultKeepRuns)
	cfg.KeepBytes = orDefault(cfg.KeepBytes, DefaultKeepBytes)
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, runs: newStore(cfg.KeepRuns, cfg.KeepBytes), slots: newLimiter(cfg.MaxRuns, cfg.Queue),
		runCtx: ctx, cancelRuns: cancel}
	s.metrics = newMetrics(s)
	return s
}

// Metrics are the server's metrics, for the reloader and the plugin host
// to report to.
func (s *Server) Metrics() *Metrics { return s.metrics }

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Handler routes the API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/plan", s.plan)
	mux.HandleFunc("POST /v1/ask", s.ask)
	mux.HandleFunc("GET /v1/runs", s.listRuns)
	mux.HandleFunc("GET /v1/runs/{id}", s.getRun)
	mux.HandleFunc("DELETE /v1/runs/{id}", s.cancelRun)
	mux.HandleFunc("GET /v1/rules", s.rules)
	mux.HandleFunc("GET /v1/openapi.json", s.openapi)
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.Handle("GET /{$}", viewer.Handler())
	mux.Handle("GET "+viewer.Prefix, viewer.Handler())
	for _, m := range s.cfg.Mounts {
		mux.Handle(m.Pattern, m.Handler(s))
	}
	return s.guard(jsonMisses(mux))
}

// jsonMisses answers the requests mux has no route for as the API answers
// its errors, in JSON: 404, or 405 with the Allow header, instead of
// net/http's text. The routes answer for themselves.
func jsonMisses(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		// No pattern: the mux's own 404 or 405; hear which, and its Allow.
		rec := &missRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.code {
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", rec.header.Get("Allow"))
			writeError(w, rec.code, "%s %s: the method is not allowed (allowed: %s)", r.Method, r.URL.Path, rec.header.Get("Allow"))
		default:
			writeError(w, http.StatusNotFound, "%s %s: no such route (GET /v1/openapi.json lists them)", r.Method, r.URL.Path)
		}
	})
}

// missRecorder hears the status and headers of the mux's error answers.
type missRecorder struct {
	header http.Header
	code   int
}

func (m *missRecorder) Header() http.Header         { return m.header }
func (m *missRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (m *missRecorder) WriteHeader(code int)        { m.code = code }

// Serve answers on ln until ctx ends, then shuts down: it stops accepting,
// lets runs finish within the grace period, cancels the rest (their partial
// history is saved) and returns when every run has ended.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	var unused unusedConns
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ConnState: unused.track}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		s.cancelRuns()
		return err
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	s.cfg.Logger.Info("shutting down", "grace", s.cfg.Grace)
	grace, cancel := context.WithTimeout(context.Background(), s.cfg.Grace)
	defer cancel()
	// Shutdown waits for a connection that has sent no request until it is
	// 5 s old (a browser's preconnect, the viewer's): nothing would be
	// answered on it any more, so it is closed now.
	unused.closeAll()
	err := hs.Shutdown(grace)
	if err != nil {
		s.cfg.Logger.Warn("grace period over: cancelling the runs in flight")
		s.cancelRuns()
		// The cancelled runs answer with their partial results, then their
		// connections close.
		finish, cancel := context.WithTimeout(context.Background(), finishTimeout)
		defer cancel()
		if err = hs.Shutdown(finish); err != nil {
			err = hs.Close()
		}
	}
	<-served // http.ErrServerClosed
	s.cancelRuns()
	return err
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz is ready while the server takes runs: not while it shuts down.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	if s.isDraining() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "shutting down"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func (s *Server) rules(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.cfg.Snapshots.Status())
}

// unusedConns are the connections that have not sent a request yet, as
// http.Server's ConnState tells them.
type unusedConns struct {
	mu    sync.Mutex
	conns map[net.Conn]bool
}

func (u *unusedConns) track(c net.Conn, state http.ConnState) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if state == http.StateNew {
		if u.conns == nil {
			u.conns = map[net.Conn]bool{}
		}
		u.conns[c] = true
		return
	}
	delete(u.conns, c)
}

// closeAll closes the connections that have sent no request.
func (u *unusedConns) closeAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for c := range u.conns {
		_ = c.Close()
	}
	clear(u.conns)
}
