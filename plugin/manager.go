// Package plugin is the host side of nous plugins: discovery, launch over
// hashicorp/go-plugin, handshake, checksums, deadlines, restart and shutdown.
// It hands the engine plain Go interfaces (engine.Sources, engine.Agents,
// engine.Grounding).
package plugin

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
	"github.com/nous-dev/nous/sdk/redact"
)

// Kind is what a plugin serves.
type Kind int

// Plugin kinds.
const (
	KindSource Kind = iota + 1
	KindAgent
)

// String names the kind as the rules do: "source" or "agent".
func (k Kind) String() string {
	switch k {
	case KindSource:
		return "source"
	case KindAgent:
		return "agent"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// article is the kind with its indefinite article, for messages.
func (k Kind) article() string {
	if k == KindAgent {
		return "an agent"
	}
	return "a " + k.String()
}

// Spec declares one logical source or agent and the plugin that serves it.
type Spec struct {
	Name    string // logical name from the rules ("gitlab", "writer")
	Kind    Kind
	Ref     string          // "builtin:NAME", a plugin name (nous-plugin-NAME), or a path
	SHA256  string          // optional pin, checked before the binary runs
	Config  json.RawMessage // passed to Configure on start
	Timeout time.Duration   // per-call deadline when the caller's context has none

	// A source with no Ref is not configured: its calls fail at once with
	// an error that says how to configure it (Setup).
	Setup string
	// RecordKind is the record kind a Fetch asks for when its request names
	// none ("issue" for a logical issues source served by GitLab).
	RecordKind string
	// FromProject says the spec comes from rules inside the project
	// directory: a binary it names by path is the project's, which runs
	// only once the user trusts it, and its pin cannot vouch for it.
	FromProject bool
	// ConfigDir is the absolute directory of the rules file that declares
	// the spec, "" for rules that are not files; Configure gets it (see
	// sdk.ConfigDir), so relative paths in Config are relative to it.
	ConfigDir string
}

// Options configure a Manager.
type Options struct {
	Dirs       []string         // extra plugin directories, searched first
	Executable string           // the nous binary that serves builtin: plugins; default os.Executable()
	Logger     hclog.Logger     // plugin logs are re-emitted under the plugin's name
	Redactor   *redact.Redactor // masks secrets in every error and log line; nil masks nothing

	// Builtins lists the built-in plugin names, so an unknown builtin:NAME
	// fails before anything runs; nil leaves the check to the child.
	Builtins []string
	// Getenv reads $NOUS_PLUGIN_DIR and $HOME; nil means os.Getenv.
	Getenv func(string) string
	// StartTimeout bounds a plugin's start and handshake; 0 means 30s.
	StartTimeout time.Duration

	// ProjectDir is the project whose .nous/plugins, and whose rules' path
	// references, hold binaries that run only once trusted; "" means the
	// working directory.
	ProjectDir string
	// TrustFile is the list `nous plugins trust` writes; "" means
	// trusted-plugins.json in the user's config directory.
	TrustFile string
	// TrustProject runs the project's binaries without a trust record
	// (for CI). Ownership checks and pins still apply.
	TrustProject bool

	// Shared, when set, is the registry whose processes the Manager shares
	// with other Managers built with it, and which counts its calls.
	Shared *Processes
}

// defaultStartTimeout bounds a plugin's handshake when Options has none.
const defaultStartTimeout = 30 * time.Second

// Manager runs plugin subprocesses on demand: one process per distinct
// plugin and config (specs that differ only in name share it), started on
// first use or by Prestart, configured, reused, restarted after a crash,
// killed when a call outlives its deadline. It is safe for concurrent use.
type Manager struct {
	resolver     resolver
	logger       hclog.Logger // redacting
	redact       *redact.Redactor
	startTimeout time.Duration
	slots        map[slotKey]*slot
	pools        map[poolKey]*pool
	serves       map[*pool][]string // the names of the specs each pool serves here, for logs
	shared       *Processes         // nil: the pools are the Manager's own

	projectDir   string // absolute
	trustFile    string
	trustProject bool

	ctx      context.Context // canceled by Close, aborting starts in flight
	cancel   context.CancelFunc
	mu       sync.Mutex
	closed   bool
	starting sync.WaitGroup // Prestart's starts; Close waits for them (added to under mu while open)
}

type slotKey struct {
	kind Kind
	name string
}

// NewManager returns a manager for specs. Plugins start on first use.
func NewManager(opts Options, specs ...Spec) (*Manager, error) {
	red := opts.Redactor
	base := opts.Logger
	if base == nil {
		base = hclog.NewNullLogger()
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	project, err := filepath.Abs(cmp.Or(opts.ProjectDir, "."))
	if err != nil {
		return nil, fmt.Errorf("finding the project directory: %w", err)
	}
	trustFile := opts.TrustFile
	if trustFile == "" {
		if trustFile, err = defaultTrustFile(getenv); err != nil {
			return nil, err
		}
	}
	dirs := SearchPath(opts.Dirs, getenv)
	m := &Manager{
		resolver: resolver{
			dirs:       dirs,
			executable: opts.Executable,
			builtins:   opts.Builtins,
			projectDir: filepath.Join(project, ".nous", "plugins"),
			userDir:    userPluginDir(getenv),
		},
		projectDir:   project,
		trustFile:    trustFile,
		trustProject: opts.TrustProject || getenv(EnvTrustProject) == "1",
		logger:       &hostLogger{Logger: base, redact: red},
		redact:       red,
		startTimeout: opts.StartTimeout,
		slots:        make(map[slotKey]*slot, len(specs)),
		pools:        make(map[poolKey]*pool, len(specs)),
		serves:       make(map[*pool][]string, len(specs)),
		shared:       opts.Shared,
	}
	if m.startTimeout <= 0 {
		m.startTimeout = defaultStartTimeout
	}
	var errs []error
	for _, s := range specs {
		key := slotKey{s.Kind, s.Name}
		switch {
		case s.Kind != KindSource && s.Kind != KindAgent:
			errs = append(errs, fmt.Errorf("plugin spec %q: unknown kind %d", s.Name, int(s.Kind)))
		case s.Name == "":
			errs = append(errs, fmt.Errorf("a %s plugin spec has no name", s.Kind))
		case s.Ref == "" && s.Kind != KindSource:
			errs = append(errs, fmt.Errorf("%s %q names no plugin", s.Kind, s.Name))
		case m.slots[key] != nil:
			errs = append(errs, fmt.Errorf("%s %q is declared twice", s.Kind, s.Name))
		default:
			m.slots[key] = newSlot(s, m.poolOf(s))
		}
	}
	if err := errors.Join(errs...); err != nil {
		m.dropPools()
		return nil, red.Error(err)
	}
	if m.shared != nil {
		for key, s := range m.slots {
			s.counts = m.shared.counters(SpecName{Kind: key.kind, Name: key.name})
		}
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m, nil
}

// poolOf is the pool of the process serving spec, shared with every spec
// of the same key (and, with Options.Shared, with other Managers); nil for a
// source that is not configured.
func (m *Manager) poolOf(spec Spec) *pool {
	if spec.Ref == "" {
		return nil
	}
	k := keyOf(spec)
	pl := m.pools[k]
	if pl == nil {
		if m.shared != nil {
			pl = m.shared.take(k)
		} else {
			pl = newPool()
		}
		m.pools[k] = pl
	}
	m.serves[pl] = append(m.serves[pl], spec.Name)
	return pl
}

// dropPools gives up the Manager's pools and returns those whose process
// it must stop: all of them, or with Options.Shared those no other open
// Manager uses.
func (m *Manager) dropPools() []*pool {
	var stop []*pool
	for k, pl := range m.pools {
		if m.shared == nil || m.shared.drop(k) {
			stop = append(stop, pl)
		}
	}
	return stop
}

// Fetch runs Fetch on the source named source.
func (m *Manager) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	return m.call(ctx, KindSource, source, "Fetch", func(ctx context.Context, s *slot, p *process) error {
		if req.Kind == "" {
			req.Kind = s.spec.RecordKind
		}
		// Tell emit's own error apart from the plugin's: it is the caller's.
		var emitErr error
		err := p.source.Fetch(ctx, req, func(r sdk.Record) error {
			if err := emit(r); err != nil {
				emitErr = err
				return err
			}
			return nil
		})
		if emitErr != nil {
			return callerError{emitErr}
		}
		return err
	})
}

// Invoke runs Invoke on the agent named agent.
func (m *Manager) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	var resp sdk.InvokeResponse
	err := m.call(ctx, KindAgent, agent, "Invoke", func(ctx context.Context, _ *slot, p *process) (err error) {
		resp, err = p.agent.Invoke(ctx, req)
		return err
	})
	if err != nil {
		return sdk.InvokeResponse{}, err
	}
	return resp, nil
}

// callerError carries an error of the caller's own making (Fetch's emit)
// through call untouched: it says nothing about the plugin.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }

// call runs op on the process serving the kind's spec named name: started
// on demand, under the spec's deadline, its failure explained (and the
// process retired when it crashed or hung) by outcome. Every call on a
// plugin goes through here.
func (m *Manager) call(ctx context.Context, kind Kind, name, op string, fn func(context.Context, *slot, *process) error) error {
	s, err := m.slot(kind, name)
	if err != nil {
		return err
	}
	err = m.callSlot(ctx, s, op, fn)
	if ce, ok := err.(callerError); ok {
		s.counts.call(nil)
		return ce.err
	}
	s.counts.call(err)
	return err
}

// callSlot is call on the slot found; an error of the caller's own making
// comes back as a callerError.
func (m *Manager) callSlot(ctx context.Context, s *slot, op string, fn func(context.Context, *slot, *process) error) error {
	// Starting has its own time limit; the spec's timeout is for the call.
	p, err := m.running(ctx, s)
	if err != nil {
		return err
	}
	ctx, cancel, budget := s.callContext(ctx)
	defer cancel()
	err = fn(ctx, s, p)
	if _, ok := err.(callerError); ok {
		return err
	}
	return m.outcome(ctx, s, p, op, budget, err)
}

// Close stops every plugin process and waits for them to exit; with
// Options.Shared, it stops only those no other open Manager uses. Calls
// after Close fail.
func (m *Manager) Close() error {
	m.mu.Lock()
	already := m.closed
	m.closed = true
	m.mu.Unlock()
	if already {
		return nil
	}
	m.cancel()
	m.starting.Wait()
	var wg sync.WaitGroup
	for _, pl := range m.dropPools() {
		wg.Go(func() { pl.shutdown("the plugin host is shutting down") })
	}
	wg.Wait()
	return nil
}

func (m *Manager) slot(kind Kind, name string) (*slot, error) {
	s := m.slots[slotKey{kind, name}]
	if s == nil {
		return nil, fmt.Errorf("no %s named %q is declared", kind, name)
	}
	return s, nil
}

func (m *Manager) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// running returns the process serving the slot's spec, starting and
// configuring it first if it is not running; a plugin that rejected its
// config is not started again. Concurrent callers, of any spec sharing the
// process, wait for one start, each until its own ctx ends.
func (m *Manager) running(ctx context.Context, s *slot) (*process, error) {
	if err := s.notConfigured(); err != nil {
		return nil, err
	}
	pl := s.pool
	if err := pl.acquire(ctx, s.who); err != nil {
		return nil, err
	}
	defer pl.release()
	if f := pl.failed; f != nil {
		pl.failed = nil // another spec's call tries again, in its own words
		if f.slot == s {
			return nil, f.err
		}
	}
	return m.ensure(ctx, s)
}

// ensure is running with the pool's lock held.
func (m *Manager) ensure(ctx context.Context, s *slot) (*process, error) {
	pl := s.pool
	if pl.rejected != nil {
		return nil, m.redact.Error(pl.rejected.as(s.who))
	}
	if p := pl.running(); p != nil {
		return p, nil
	}
	if m.isClosed() {
		return nil, fmt.Errorf("plugin %s: the plugin host is shut down", s.who)
	}
	if old := pl.proc; old != nil {
		pl.proc = nil
		old.end(true)
		s.counts.restart()
		m.logger.Info("restarting plugin", "plugin", s.spec.Name, "ref", s.spec.Ref)
	}
	p, err := m.start(ctx, s)
	if err != nil {
		return nil, m.redact.Error(err)
	}
	pl.proc = p
	return p, nil
}

// start launches, connects and configures the plugin behind s.
func (m *Manager) start(ctx context.Context, s *slot) (*process, error) {
	// Starting and configuring get startTimeout (or less, if the caller's
	// deadline is nearer); Close aborts a start in flight.
	ctx, cancel := context.WithTimeout(ctx, m.startTimeout)
	defer cancel()
	stopOnClose := context.AfterFunc(m.ctx, cancel)
	defer stopOnClose()

	p, err := m.launch(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := m.configure(ctx, s, p); err != nil {
		p.end(true)
		return nil, err
	}
	m.logger.Named(s.spec.Name).Debug("plugin ready", "path", p.run.name, "pid", p.pid(), "serves", strings.Join(m.serves[s.pool], ", "))
	return p, nil
}

// launch finds the binary behind s, checks it (prepare) and starts what
// was checked, up to a completed handshake.
func (m *Manager) launch(ctx context.Context, s *slot) (*process, error) {
	p, err := m.prepare(s.spec)
	if err != nil {
		if p == nil {
			return nil, m.redact.Error(fmt.Errorf("%s %s: %w", s.spec.Kind, s.spec.Name, err))
		}
		return nil, m.redact.Error(fmt.Errorf("plugin %s: %w", s.who, err))
	}
	proc, err := startProcess(ctx, startConfig{
		who:          s.who,
		launch:       p.launch,
		sealed:       p.sealed,
		logger:       m.logger.Named(s.spec.Name),
		redact:       m.redact,
		startTimeout: m.startTimeout,
	})
	if err != nil {
		p.release()
	}
	return proc, err
}

// configure dispenses the slot's service and hands it the spec's config.
// A config the plugin refuses is remembered on the slot's pool, for every
// spec sharing the process.
func (m *Manager) configure(ctx context.Context, s *slot, p *process) error {
	if err := p.dispense(s.spec.Kind); err != nil {
		return err
	}
	diags, err := callConfigure(ctx, s, p)
	switch {
	case errors.Is(err, host.ErrNotServed):
		return s.notServed()
	case err != nil && !p.alive():
		return m.crashed(s, p, "Configure")
	case errors.Is(err, sdk.ErrBadConfig):
		s.pool.rejected = &refusal{err: err}
		return s.pool.rejected.as(s.who)
	case err != nil:
		return fmt.Errorf("plugin %s: Configure: %w", s.who, err)
	}
	if problems := configProblems(diags, m.logger.Named(s.spec.Name)); len(problems) > 0 {
		s.pool.rejected = &refusal{problems: problems}
		return s.pool.rejected.as(s.who)
	}
	return nil
}

// callConfigure calls Configure with the spec's config on the service of
// the slot's kind, which p has dispensed.
func callConfigure(ctx context.Context, s *slot, p *process) (sdk.Diagnostics, error) {
	ctx = sdk.WithConfigDir(ctx, s.spec.ConfigDir)
	if s.spec.Kind == KindSource {
		return p.source.Configure(ctx, s.config())
	}
	return p.agent.Configure(ctx, s.config())
}

// outcome turns the error of a call on p into the error the caller sees,
// and retires p when it crashed or hung.
func (m *Manager) outcome(ctx context.Context, s *slot, p *process, op string, budget time.Duration, err error) error {
	if err == nil {
		return nil
	}
	if deadlinePassed(ctx) {
		retire(p, fmt.Sprintf("a %s call ran past its deadline", op))
		m.logger.Warn("killed plugin: call ran past its deadline", "plugin", s.spec.Name, "op", op, "pid", p.pid())
		return &sdk.Error{
			Kind:    sdk.KindDeadline,
			Message: fmt.Sprintf("plugin %s: %s did not finish within its deadline (%s); the plugin process was killed and restarts on the next call", s.who, op, budget.Round(time.Millisecond)),
			Err:     context.DeadlineExceeded,
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("plugin %s: %s: %w", s.who, op, ctx.Err())
	}
	if reason := p.stopReason(); reason != "" {
		return &sdk.Error{Kind: sdk.KindUnavailable, Message: fmt.Sprintf("plugin %s: %s failed because the process was stopped: %s", s.who, op, reason), Err: err}
	}
	if !p.alive() {
		return m.crashed(s, p, op)
	}
	return m.redact.Error(fmt.Errorf("plugin %s: %s: %w", s.who, op, err))
}

// deadlinePassed reports whether ctx's deadline has passed. gRPC runs its
// own timer for the deadline and may report it before ctx's timer fires.
func deadlinePassed(ctx context.Context) bool {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// crashed retires a process that died by itself and explains why.
func (m *Manager) crashed(s *slot, p *process, op string) error {
	retire(p, "it exited unexpectedly")
	note := p.log.crashNote() // complete now: retire waited for stderr to drain
	if st := p.exitStatus(); st != "" {
		note += " (" + st + ")"
	}
	m.logger.Error("plugin exited unexpectedly", "plugin", s.spec.Name, "op", op, "reason", note)
	return m.redact.Error(&sdk.Error{
		Kind:    sdk.KindUnavailable,
		Message: fmt.Sprintf("plugin %s exited unexpectedly: %s (during %s; it restarts on the next call)", s.who, note, op),
	})
}

// ConfigSummary is a config diagnostic's summary, after the config key it
// is about ("config.token: is required").
func ConfigSummary(d sdk.Diagnostic) string {
	if d.Path == "" {
		return d.Summary
	}
	return "config." + d.Path + ": " + d.Summary
}

// configProblems are Configure's error diagnostics, each naming its config
// key; warnings are logged.
func configProblems(diags sdk.Diagnostics, logger hclog.Logger) []string {
	var problems []string
	for _, d := range diags {
		msg := ConfigSummary(d)
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		if d.Severity == sdk.SeverityError {
			problems = append(problems, msg)
		} else {
			logger.Warn("config warning: " + msg)
		}
	}
	return problems
}
