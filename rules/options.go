package rules

import "os"

// Option configures Load and LoadFS.
type Option func(*config)

type config struct {
	lookupEnv    func(string) (string, bool)
	maxNodes     uint
	memoryBudget uint
}

func newConfig(opts []Option) config {
	c := config{lookupEnv: os.LookupEnv, maxNodes: 1000, memoryBudget: 1_000_000}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithLookupEnv sets the environment that env() reads (os.LookupEnv by default).
func WithLookupEnv(lookup func(string) (string, bool)) Option {
	return func(c *config) { c.lookupEnv = lookup }
}

// WithEnv makes env() read only the given variables.
func WithEnv(vars map[string]string) Option {
	return WithLookupEnv(func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	})
}

// WithMaxNodes limits the size of every condition's syntax tree (1000 by default).
func WithMaxNodes(n uint) Option {
	return func(c *config) { c.maxNodes = n }
}

// WithMemoryBudget limits the memory units one condition evaluation may
// allocate (expr's vm.MemoryBudget; 1e6 by default).
func WithMemoryBudget(n uint) Option {
	return func(c *config) { c.memoryBudget = n }
}
