package rules

import (
	"os"
	"time"

	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/sdk"
)

// Option configures Load and LoadFS.
type Option func(*config)

type config struct {
	lookupEnv        func(string) (string, bool)
	gitRemote        func(dir string) (sdk.Remote, bool)
	maxNodes         uint
	memoryBudget     uint
	maxBytes         int
	conditionTimeout time.Duration
}

// Defaults of the limits of one condition evaluation.
const (
	DefaultMemoryBudget     = 1_000_000
	DefaultConditionBytes   = 16 << 20
	DefaultConditionTimeout = time.Second
)

func newConfig(opts []Option) config {
	c := config{lookupEnv: os.LookupEnv, maxNodes: 1000, memoryBudget: DefaultMemoryBudget,
		maxBytes: DefaultConditionBytes, conditionTimeout: DefaultConditionTimeout}
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

// WithGitRemote sets how git_remote() finds where the repository in dir is
// hosted (by default its origin remote, gitremote.Origin, with the
// self-hosted instances the environment env() reads names).
func WithGitRemote(origin func(dir string) (sdk.Remote, bool)) Option {
	return func(c *config) { c.gitRemote = origin }
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

// WithConditionBytes limits the bytes one condition evaluation may build
// with + and the builtins that make larger values (repeat, join, replace,
// toJSON, …): 16 MiB by default.
func WithConditionBytes(n int) Option {
	return func(c *config) { c.maxBytes = n }
}

// WithConditionTimeout limits the wall time of one evaluation of a
// condition that loops over a collection (1s by default; 0 for none).
func WithConditionTimeout(d time.Duration) Option {
	return func(c *config) { c.conditionTimeout = d }
}

func (c config) limits() cond.Limits {
	return cond.Limits{MaxNodes: c.maxNodes, MemoryBudget: c.memoryBudget, MaxBytes: c.maxBytes, Timeout: c.conditionTimeout}
}
