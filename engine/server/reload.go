package server

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// defaultDebounce is how long the rules files must stay quiet after a change
// before they are reloaded: long enough for an editor's save, which may
// rename, create and write, to be one reload.
const defaultDebounce = 250 * time.Millisecond

// maxDiagnostics bounds the diagnostics a reload keeps for GET /v1/rules.
const maxDiagnostics = 100

// Loader loads and lints the rules and builds their snapshot. The snapshot
// is nil when the rules have errors; the diagnostics say what was found,
// warnings included.
type Loader func(context.Context) (*Snapshot, []Diagnostic)

// ReloadConfig configures a Reloader.
type ReloadConfig struct {
	Load Loader
	// Watch lists rules files and directories whose changes always reload
	// the rules, beside the Watch of the snapshot current at the time
	// (which the Reloader follows from reload to reload); none of either
	// reloads only on Reload.
	Watch []string
	// Debounce is the quiet time after a change before the reload; 0 means
	// 250ms.
	Debounce time.Duration
	// Logger gets a line per reload; nil logs nothing.
	Logger *slog.Logger
	// Observe, when set, is called after every reload with its result (to
	// count it).
	Observe func(ReloadResult)
}

// Reloader is the Snapshots of a server whose rules are reloaded when their
// files change (Watch) or on demand (Reload, for SIGHUP). A new version is
// swapped in only when it loads without errors; otherwise the last good
// snapshot keeps serving and the diagnostics are reported in Status. Runs
// keep the snapshot they started with; a replaced snapshot is released when
// its last run ends. It is safe for concurrent use.
type Reloader struct {
	cfg     ReloadConfig
	logger  *slog.Logger
	watcher *fsnotify.Watcher

	reloading sync.Mutex // one reload at a time; guards the watch set's directories
	watching  []string   // the directories watched, sorted

	mu      sync.Mutex
	watched watched // what the events are sorted by
	current *held
	last    *ReloadResult
	closed  bool
}

// held is a snapshot and its users: the Reloader while it is current, and
// every run that acquired it. Its refs are guarded by Reloader.mu.
type held struct {
	snap *Snapshot
	refs int
}

var _ Snapshots = (*Reloader)(nil)

// NewReloader returns a Reloader serving first and watching cfg.Watch and
// first.Watch; the watch is in place when it returns, and Watch acts on
// what it sees.
func NewReloader(first *Snapshot, cfg ReloadConfig) (*Reloader, error) {
	if first == nil || cfg.Load == nil {
		return nil, fmt.Errorf("a reloader needs a first snapshot and a loader")
	}
	r := &Reloader{
		cfg:     cfg,
		logger:  cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler)),
		current: &held{snap: first, refs: 1},
	}
	r.cfg.Debounce = cmp.Or(cfg.Debounce, defaultDebounce)
	w, err := watchedOf(append(slices.Clone(cfg.Watch), first.Watch...))
	if err != nil {
		return nil, err
	}
	// The watcher is there even with nothing to watch yet: a reload may
	// bring rules files (./.nous made after a start on the defaults).
	if r.watcher, err = fsnotify.NewWatcher(); err != nil {
		return nil, fmt.Errorf("watching the rules: %w", err)
	}
	for _, dir := range w.parents() {
		if err := r.watcher.Add(dir); err != nil {
			_ = r.watcher.Close()
			return nil, fmt.Errorf("watching the rules in %s: %w", dir, err)
		}
	}
	r.watched, r.watching = w, w.parents()
	return r, nil
}

// follow makes the watch set cfg.Watch and snap.Watch after snap was
// swapped in: what cannot be watched is logged, not fatal (the rules did
// load). The caller holds r.reloading.
func (r *Reloader) follow(snap *Snapshot) {
	w, problems := watchedOfLenient(append(slices.Clone(r.cfg.Watch), snap.Watch...))
	for _, err := range problems {
		r.logger.Warn("watching the rules", "err", err)
	}
	dirs := w.parents()
	for _, dir := range r.watching {
		if !slices.Contains(dirs, dir) {
			_ = r.watcher.Remove(dir) // gone already when the directory was removed
		}
	}
	var now []string
	for _, dir := range dirs {
		if !slices.Contains(r.watching, dir) {
			if err := r.watcher.Add(dir); err != nil {
				r.logger.Warn("watching the rules", "dir", dir, "err", err)
				continue
			}
		}
		now = append(now, dir)
	}
	r.mu.Lock()
	r.watched = w
	r.mu.Unlock()
	r.watching = now
}

// Acquire returns the current snapshot and the func that releases it,
// which the caller calls once its run has ended.
func (r *Reloader) Acquire() (*Snapshot, func()) {
	r.mu.Lock()
	h := r.current
	h.refs++
	r.mu.Unlock()
	var once sync.Once
	return h.snap, func() { once.Do(func() { r.unref(h) }) }
}

// Status is what is served and how the last reload went.
func (r *Reloader) Status() RulesStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return statusOf(r.current.snap, r.last)
}

// Watch reloads the rules once their watched files have changed and stayed
// quiet for the debounce time, until ctx ends or the Reloader is closed.
// After every reload that swapped rules in, it watches the new rules'
// files.
func (r *Reloader) Watch(ctx context.Context) {
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	defer quiet.Stop()
	var due <-chan time.Time // set while a change waits for quiet
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-r.watcher.Events:
			if !ok {
				return
			}
			if r.relevant(ev.Name) {
				quiet.Reset(r.cfg.Debounce)
				due = quiet.C
			}
		case err, ok := <-r.watcher.Errors:
			if !ok {
				return
			}
			r.logger.Warn("watching the rules files", "err", err)
		case <-due:
			due = nil
			r.Reload(ctx)
		}
	}
}

// Reload loads the rules again and swaps them in when they have no errors;
// otherwise the current snapshot keeps serving. Either way the result is
// kept for Status, logged and observed.
func (r *Reloader) Reload(ctx context.Context) ReloadResult {
	r.reloading.Lock()
	defer r.reloading.Unlock()
	snap, diags := r.cfg.Load(ctx)
	res := ReloadResult{At: time.Now().UTC(), OK: snap != nil && !hasErrors(diags), Diagnostics: bounded(diags)}
	var old *held
	r.mu.Lock()
	switch {
	case r.closed:
		res.OK = false
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Severity: "error", Summary: "the server is shutting down: no reload"})
	case res.OK:
		old, r.current = r.current, &held{snap: snap, refs: 1}
	}
	r.last = &res
	r.mu.Unlock()
	switch {
	case old != nil:
		r.follow(snap)
		r.unref(old)
	case snap != nil:
		releaseSnapshot(snap) // built, never served
	}
	r.log(res, snap)
	if r.cfg.Observe != nil {
		r.cfg.Observe(res)
	}
	return res
}

// Close stops watching and gives up the current snapshot, which is
// released once its last run has ended. Reloads after Close swap nothing.
func (r *Reloader) Close() error {
	r.mu.Lock()
	already := r.closed
	r.closed = true
	h := r.current
	r.mu.Unlock()
	if already {
		return nil
	}
	err := r.watcher.Close()
	r.unref(h)
	return err
}

// relevant reports whether an event on name can change the rules watched.
func (r *Reloader) relevant(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.watched.relevant(name)
}

// unref drops one user of h and releases its snapshot after the last.
func (r *Reloader) unref(h *held) {
	r.mu.Lock()
	h.refs--
	last := h.refs == 0
	r.mu.Unlock()
	if last {
		releaseSnapshot(h.snap)
	}
}

func releaseSnapshot(s *Snapshot) {
	if s.Release != nil {
		s.Release()
	}
}

// log reports a reload: its outcome and, when it failed, why.
func (r *Reloader) log(res ReloadResult, snap *Snapshot) {
	if res.OK {
		r.logger.Info("rules reloaded", "digest", snap.Digest, "files", len(snap.Files), "warnings", len(res.Diagnostics))
		// The rules serve, but the questions on these sources will fail.
		for _, d := range snap.Problems() {
			r.logger.Warn("plugin config: "+d.Summary, "range", d.Range, "severity", d.Severity, "detail", d.Detail)
		}
		return
	}
	r.logger.Error("rules reload failed; the last good rules keep serving", "diagnostics", len(res.Diagnostics))
	for _, d := range res.Diagnostics {
		r.logger.Error("rules reload: "+d.Summary, "range", d.Range, "severity", d.Severity, "detail", d.Detail)
	}
}

// hasErrors reports whether any diagnostic is an error.
func hasErrors(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == "error" {
			return true
		}
	}
	return false
}

// bounded is diags, never nil, with at most maxDiagnostics kept: the
// errors first, then a last one saying how many were left out.
func bounded(diags []Diagnostic) []Diagnostic {
	if len(diags) <= maxDiagnostics {
		return append([]Diagnostic{}, diags...)
	}
	out := make([]Diagnostic, 0, maxDiagnostics)
	for _, errs := range []bool{true, false} {
		for _, d := range diags {
			if (d.Severity == "error") == errs && len(out) < maxDiagnostics-1 {
				out = append(out, d)
			}
		}
	}
	return append(out, Diagnostic{Severity: "warning", Summary: fmt.Sprintf("%d more diagnostics not shown", len(diags)-len(out))})
}
