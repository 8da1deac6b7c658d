package git

import (
	"context"
	"fmt"
	"sync"

	"github.com/go-git/go-billy/v5"
	gogit "github.com/go-git/go-git/v5"
	"github.com/nous-dev/nous/sdk"
)

// maxHandles bounds the repository handles open at once, so as many
// Fetch and Ground calls run in parallel; more wait for a handle. Each
// handle costs its pack file descriptors, an object cache of at most
// objectCacheSize, go-git's in-memory pack indexes once it reads objects
// itself, and with git one `git cat-file` process.
const maxHandles = 4

// handle is one independently opened repository: go-git's file storage
// shares its pack file handles and object cache between callers without
// locking, and a cat-file process serves one call's context at a time, so
// a handle serves one call at a time.
type handle struct {
	repo *gogit.Repository
	// objects reads objects through git cat-file; nil when go-git reads
	// them.
	objects *catFileStore
}

// watch binds the object reads of a call to its context (see
// catFileStore.watch); the returned func ends the binding.
func (h *handle) watch(ctx context.Context) func() {
	if h.objects == nil {
		return func() {}
	}
	return h.objects.watch(ctx)
}

// handles is the pool of one configuration's repository handles: the one
// Configure opened, and up to maxHandles in all, each opened when every
// open handle is busy.
type handles struct {
	// gitDir opens more handles; nil when the storage is not a directory,
	// and then the first handle is the only one.
	gitDir billy.Filesystem
	gitBin string
	limit  int
	// slots holds a token per handle in use: a full channel means every
	// handle is busy.
	slots chan struct{}

	mu   sync.Mutex
	all  []*handle // opened, the first Configure's
	busy []bool    // per handle of all
}

func newHandles(first *handle, gitDir billy.Filesystem, gitBin string) *handles {
	limit := maxHandles
	if gitDir == nil {
		limit = 1
	}
	return &handles{gitDir: gitDir, gitBin: gitBin, limit: limit, slots: make(chan struct{}, limit),
		all: []*handle{first}, busy: []bool{false}}
}

// acquire returns a handle no other call uses, opening one when all are
// busy and fewer than the limit are open, else waiting for one until ctx
// is done. The caller releases it.
func (p *handles) acquire(ctx context.Context) (*handle, error) {
	select {
	case p.slots <- struct{}{}:
	default:
		select {
		case p.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, sdk.Errorf(sdk.KindDeadline, "git: all %d repository handles stayed busy with other requests: %w", p.limit, ctx.Err())
		}
	}
	// Holding a slot, at most limit-1 other calls hold handles: one of
	// those open is idle, or fewer than limit are open.
	p.mu.Lock()
	for i, h := range p.all {
		if !p.busy[i] {
			p.busy[i] = true // the lowest first: one call at a time always uses the first
			p.mu.Unlock()
			return h, nil
		}
	}
	p.mu.Unlock()
	h, err := openHandle(p.gitDir, p.gitBin)
	if err != nil {
		<-p.slots
		return nil, fmt.Errorf("git: opening another handle on the repository: %w", err)
	}
	if h.objects != nil {
		h.objects.start()
	}
	p.mu.Lock()
	p.all, p.busy = append(p.all, h), append(p.busy, true)
	p.mu.Unlock()
	return h, nil
}

// release gives h back for the next call.
func (p *handles) release(h *handle) {
	p.mu.Lock()
	for i := range p.all {
		if p.all[i] == h {
			p.busy[i] = false
		}
	}
	p.mu.Unlock()
	<-p.slots
}

// opened reports how many handles are open.
func (p *handles) opened() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.all)
}

// close releases every handle's pack files and git process. The caller
// makes sure no call uses them (Configure holds the source's lock).
func (p *handles) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.all {
		closeRepo(h.repo)
	}
	p.all, p.busy = nil, nil
}

// call is one Fetch or Ground: the source, whose configuration it reads
// under the read lock, and the repository of the handle it alone uses.
type call struct {
	*Source
	repo *gogit.Repository
}

// begin starts a call: the read lock, a handle, its object reads bound
// to ctx. end gives them back.
func (s *Source) begin(ctx context.Context) (c *call, end func(), err error) {
	s.mu.RLock()
	if s.openErr != nil {
		s.mu.RUnlock()
		return nil, nil, s.openErr
	}
	h, err := s.pool.acquire(ctx)
	if err != nil {
		s.mu.RUnlock()
		return nil, nil, err
	}
	stop := h.watch(ctx)
	return &call{Source: s, repo: h.repo}, func() {
		stop()
		s.pool.release(h)
		s.mu.RUnlock()
	}, nil
}
