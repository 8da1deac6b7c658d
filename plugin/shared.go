package plugin

import (
	"maps"
	"sync"
	"sync/atomic"
)

// Processes is a registry of plugin processes shared by the Managers built
// with it (Options.Shared), such as the Managers of successive rulesets of
// a long-running server: a new Manager reuses the process of every spec
// whose plugin, pin, config, config directory and provenance did not
// change, and a process stops when the last Manager using it is closed.
// Managers sharing it should differ in their specs only. It also counts
// every spec's calls and restarts, across Managers. It is safe for
// concurrent use.
type Processes struct {
	mu     sync.Mutex
	pools  map[poolKey]*sharedPool
	counts map[SpecName]*counters
}

// sharedPool is a pool and how many open Managers use it.
type sharedPool struct {
	pool  *pool
	users int
}

// SpecName names a spec across rulesets: its kind and logical name.
type SpecName struct {
	Kind Kind
	Name string
}

// Counts are a spec's calls and restarts since its registry was made.
type Counts struct {
	Calls    uint64 // Fetch, Invoke and Ground calls
	Failures uint64 // calls that ended in an error
	Restarts uint64 // processes started again after one crashed, hung or was killed
}

// counters are a spec's Counts as they grow; a nil *counters counts nothing.
type counters struct {
	calls, failures, restarts atomic.Uint64
}

// NewProcesses returns an empty registry.
func NewProcesses() *Processes {
	return &Processes{pools: map[poolKey]*sharedPool{}, counts: map[SpecName]*counters{}}
}

// Counts are the counts of every spec that was ever declared to a Manager
// sharing the registry.
func (ps *Processes) Counts() map[SpecName]Counts {
	ps.mu.Lock()
	cs := maps.Clone(ps.counts)
	ps.mu.Unlock()
	out := make(map[SpecName]Counts, len(cs))
	for name, c := range cs {
		out[name] = Counts{Calls: c.calls.Load(), Failures: c.failures.Load(), Restarts: c.restarts.Load()}
	}
	return out
}

// take is the pool for key, made if no open Manager uses one, with one
// more user.
func (ps *Processes) take(key poolKey) *pool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	sp := ps.pools[key]
	if sp == nil {
		sp = &sharedPool{pool: newPool()}
		ps.pools[key] = sp
	}
	sp.users++
	return sp.pool
}

// drop gives up one use of key's pool and reports whether it was the last:
// the caller then stops the pool's process, and the next take makes a new
// pool.
func (ps *Processes) drop(key poolKey) bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	sp := ps.pools[key]
	sp.users--
	if sp.users > 0 {
		return false
	}
	delete(ps.pools, key)
	return true
}

// counters are name's counters, made on first use.
func (ps *Processes) counters(name SpecName) *counters {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	c := ps.counts[name]
	if c == nil {
		c = &counters{}
		ps.counts[name] = c
	}
	return c
}

// call counts one call and whether it failed.
func (c *counters) call(err error) {
	if c == nil {
		return
	}
	c.calls.Add(1)
	if err != nil {
		c.failures.Add(1)
	}
}

// restart counts one restart.
func (c *counters) restart() {
	if c != nil {
		c.restarts.Add(1)
	}
}
