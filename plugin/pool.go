package plugin

import (
	"context"
	"fmt"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// poolKey is what makes two specs the same plugin process: the same kind,
// binary (reference and pin), provenance (which decides trust) and config.
// Specs that differ only in name, deadline or record kind share a process.
type poolKey struct {
	kind        Kind
	ref, sha256 string
	config      string
	configDir   string
	fromProject bool
}

// keyOf is spec's pool key.
func keyOf(spec Spec) poolKey {
	return poolKey{kind: spec.Kind, ref: spec.Ref, sha256: spec.SHA256, config: string(specConfig(spec)),
		configDir: spec.ConfigDir, fromProject: spec.FromProject}
}

// pool holds the one process serving every spec with the same key: one
// start and one Configure for all of them, and a restart for all after a
// crash. Its lock guards starts, so concurrent first calls share one
// process.
type pool struct {
	lock chan struct{} // a mutex a waiting call can give up on: held when full
	proc *process
	// rejected is the plugin's refusal of the config: every later call of
	// every sharing spec fails with it rather than start and configure
	// the plugin again (and log its config warnings again). Held with lock.
	rejected *refusal
	// failed is the error of a start no call asked for (Prestart), kept
	// for the first call of the spec it started for, which fails with it
	// as it would have failed starting the plugin itself. Held with lock.
	failed *prestartError
	// checked are the diagnostics of CheckConfig's check of the plugin
	// and config, once made. Held with lock.
	checked *sdk.Diagnostics
}

// prestartError is a failed prestart of spec's plugin.
type prestartError struct {
	slot *slot
	err  error
}

func newPool() *pool { return &pool{lock: make(chan struct{}, 1)} }

// acquire takes the pool's lock, or gives up when ctx ends first: a call
// waiting for another call's start keeps its own deadline. who names the
// spec the caller used.
func (pl *pool) acquire(ctx context.Context, who string) error {
	select {
	case pl.lock <- struct{}{}: // free: taken whatever ctx says, as a mutex would
		return nil
	default:
	}
	select {
	case pl.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &sdk.Error{
			Kind:    sdk.KindDeadline,
			Message: fmt.Sprintf("plugin %s: gave up waiting for it to start: %v", who, ctx.Err()),
			Err:     ctx.Err(),
		}
	}
}

// release gives the pool's lock back.
func (pl *pool) release() { <-pl.lock }

// running is the pool's process when it may take calls, else nil.
func (pl *pool) running() *process {
	if pl.proc != nil && pl.proc.usable() {
		return pl.proc
	}
	return nil
}

// shutdown stops the pool's process politely, for Close.
func (pl *pool) shutdown(reason string) {
	pl.lock <- struct{}{} // Close waits for a start in flight: it cancelled it
	p := pl.proc
	pl.proc = nil
	pl.release()
	if p != nil {
		p.markStopped(reason)
		p.end(false)
	}
}

// retire kills p at once because it crashed or hung; the next call of any
// spec sharing it starts a new process.
func retire(p *process, reason string) {
	p.markStopped(reason)
	p.end(true)
}

// refusal is a config the plugin refused: Configure's error of kind bad
// config, or its error diagnostics. It is worded for whichever spec asks,
// since every spec sharing the process fails with it.
type refusal struct {
	err      error    // Configure's error
	problems []string // the error diagnostics, when err is nil
}

// as is the refusal in words naming who.
func (r *refusal) as(who string) error {
	if r.err != nil {
		return fmt.Errorf("plugin %s: Configure: %w", who, r.err)
	}
	return &sdk.Error{
		Kind:    sdk.KindBadConfig,
		Message: fmt.Sprintf("plugin %s rejected its config: %s", who, strings.Join(r.problems, "; ")),
	}
}
