package plugin

import (
	"context"
	"fmt"
)

// Prestart starts the processes serving the named sources and agents, in
// the background and in parallel, so that their first calls need not wait
// for them; it returns at once. Specs sharing a process start it once;
// names the rules do not declare, sources that are not configured and
// processes already running are skipped. A start that fails fails the
// first call of the spec it started for with the error that call would
// have met starting it; ctx's end or Close abandons starts in flight, and
// Close waits for them.
func (m *Manager) Prestart(ctx context.Context, sources, agents []string) {
	var todo []*slot
	seen := map[*pool]bool{}
	add := func(kind Kind, names []string) {
		for _, name := range names {
			s := m.slots[slotKey{kind, name}]
			if s == nil || s.pool == nil || seen[s.pool] {
				continue
			}
			seen[s.pool] = true
			if !s.pool.settled() {
				todo = append(todo, s)
			}
		}
	}
	add(KindSource, sources)
	add(KindAgent, agents)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	for _, s := range todo {
		m.starting.Go(func() { m.prestart(ctx, s) })
	}
}

// settled reports whether the pool's process needs no start: it runs, or
// its start failed or its config was refused (what prestart would find).
// It looks only when the lock is free; a pool busy starting or checking
// is not settled, and prestart waits its turn as before. Every question
// prestarts its plugins, which are nearly always running: this answers
// them without a goroutine each.
func (pl *pool) settled() bool {
	select {
	case pl.lock <- struct{}{}:
	default:
		return false
	}
	defer pl.release()
	return pl.failed != nil || pl.rejected != nil || pl.running() != nil
}

// prestart starts the process serving s unless it runs, failed or was
// refused already; a failure is kept for s's first call.
func (m *Manager) prestart(ctx context.Context, s *slot) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(m.ctx, cancel)() // Close ends a wait for the lock too
	pl := s.pool
	if pl.acquire(ctx, s.who) != nil {
		return
	}
	defer pl.release()
	if pl.failed != nil || pl.rejected != nil || pl.running() != nil {
		return
	}
	_, err := m.ensure(ctx, s)
	switch {
	case err == nil, pl.rejected != nil:
		// Running, or refused for every sharing spec.
	case ctx.Err() != nil:
		// Abandoned (by its caller or Close): a call that still wants the
		// plugin starts it itself.
	default:
		m.logger.Named(s.spec.Name).Debug(fmt.Sprintf("prestart failed; the first call of %s %q fails with it", s.spec.Kind, s.spec.Name), "err", err)
		pl.failed = &prestartError{slot: s, err: err}
	}
}
