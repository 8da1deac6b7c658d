package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// slot holds the process serving one spec. Its lock guards starts, so
// concurrent first calls share one process.
type slot struct {
	spec Spec
	who  string // "name (ref)", for messages

	lock chan struct{} // a mutex a waiting call can give up on: held when full
	proc *process
	// rejected is the error of a plugin that refused its config: every
	// later call fails with it rather than start and configure the plugin
	// again (and log its config warnings again). Held with lock.
	rejected error
}

// newSlot returns the slot of spec, with no process until its first call.
func newSlot(spec Spec) *slot {
	return &slot{spec: spec, who: fmt.Sprintf("%s (%s)", spec.Name, spec.Ref), lock: make(chan struct{}, 1)}
}

// acquire takes the slot's lock, or gives up when ctx ends first: a call
// waiting for another call's start keeps its own deadline.
func (s *slot) acquire(ctx context.Context) error {
	select {
	case s.lock <- struct{}{}: // free: taken whatever ctx says, as a mutex would
		return nil
	default:
	}
	select {
	case s.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &sdk.Error{
			Kind:    sdk.KindDeadline,
			Message: fmt.Sprintf("plugin %s: gave up waiting for it to start: %v", s.who, ctx.Err()),
			Err:     ctx.Err(),
		}
	}
}

// release gives the slot's lock back.
func (s *slot) release() { <-s.lock }

// config is the JSON handed to Configure: the spec's, or an empty object.
func (s *slot) config() json.RawMessage {
	if len(s.spec.Config) == 0 {
		return json.RawMessage("{}")
	}
	return s.spec.Config
}

// notServed says the plugin lacks the service the rules use it for.
func (s *slot) notServed() error {
	return fmt.Errorf("plugin %s does not serve %s, but the rules use it as %s %q", s.who, s.spec.Kind.article(), s.spec.Kind, s.spec.Name)
}

// callContext gives a call the spec's timeout when the caller set no
// deadline, and says how much time the call has (0: unbounded).
func (s *slot) callContext(ctx context.Context) (context.Context, context.CancelFunc, time.Duration) {
	if d, ok := ctx.Deadline(); ok {
		return ctx, func() {}, time.Until(d)
	}
	if s.spec.Timeout > 0 {
		ctx, cancel := context.WithTimeout(ctx, s.spec.Timeout)
		return ctx, cancel, s.spec.Timeout
	}
	return ctx, func() {}, 0
}

// retire kills p at once because it crashed or hung; the next call starts
// a new process.
func (s *slot) retire(p *process, reason string) {
	p.markStopped(reason)
	p.end(true)
}

// shutdown stops the slot's process politely, for Close.
func (s *slot) shutdown(reason string) {
	s.lock <- struct{}{} // Close waits for a start in flight: it cancelled it
	p := s.proc
	s.proc = nil
	s.release()
	if p != nil {
		p.markStopped(reason)
		p.end(false)
	}
}
