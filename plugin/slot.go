package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// slot is one spec and the pool of the process serving it, which every
// spec with the same key shares.
type slot struct {
	spec Spec
	who  string // "name (ref)", for messages
	pool *pool  // nil for a source that is not configured
	// counts are the spec's counters in Options.Shared, nil without it.
	counts *counters
}

// newSlot returns the slot of spec served by pl, with no process until a
// call needs one.
func newSlot(spec Spec, pl *pool) *slot {
	return &slot{spec: spec, who: fmt.Sprintf("%s (%s)", spec.Name, spec.Ref), pool: pl}
}

// config is the JSON handed to Configure: the spec's, or an empty object.
func (s *slot) config() json.RawMessage { return specConfig(s.spec) }

// specConfig is spec's config, or an empty object: no config and an empty
// one are the same.
func specConfig(spec Spec) json.RawMessage {
	if len(spec.Config) == 0 {
		return json.RawMessage("{}")
	}
	return spec.Config
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
