package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/nous-dev/nous/sdk"
)

// catFileStore reads objects through one long-running `git cat-file
// --batch` and everything else (references, config, the shallow list)
// through go-git's storage, so the go-git repository, the walk, the path
// filter and grounding work unchanged on top of it. git answers from its
// own pack index with no set-up, where go-git's first read of a packed
// object indexes every object of the pack (130 ms and 50 MB on a 35,000-
// commit repository). When git fails (not a safe directory, killed, an odd
// repository) objects are read with go-git from then on.
type catFileStore struct {
	*packStore
	gitBin, gitDir string
	// limit is the largest object read, maxObjectSize but in tests.
	limit int64
	// reads counts the objects git read; at handover (handoverReads but
	// in tests) go-git takes over.
	reads, handover int

	// mu serialises the requests on git's pipes.
	mu sync.Mutex
	// proc is git, nil before the start and after a stop.
	proc *catFile
	// broken is why git is no longer used; nil while it is.
	broken error
	// ctx is the context of the call reading objects, nil between calls.
	ctx context.Context

	// kill guards what a done context's kill needs without waiting for
	// mu: the running git and the call being watched.
	kill struct {
		sync.Mutex
		proc  *catFile
		watch uint64
	}
}

func newCatFileStore(st *packStore, gitBin, gitDir string) *catFileStore {
	return &catFileStore{packStore: st, gitBin: gitBin, gitDir: gitDir, limit: maxObjectSize, handover: handoverReads}
}

// handoverReads is how many objects git reads before go-git takes over. A
// read through git's pipe costs a round trip; go-git reads in-process once
// it has indexed the pack (~130 ms and ~50 MB on 35,000 commits). A week's
// walk stays far below it; a walk of a whole long history (an author no
// commit matches) goes on about twice as fast with go-git after it.
const handoverReads = 4096

// errHandedOver says go-git reads the objects because the walks are long.
var errHandedOver = errors.New("git read its share of objects; go-git reads the rest")

// watch binds the reads until the returned stop to ctx: when ctx is done
// git is killed, the read under way fails with ctx's error, and the next
// call starts a new git.
func (s *catFileStore) watch(ctx context.Context) (stop func()) {
	s.mu.Lock()
	if s.proc != nil && s.proc.killed.Load() {
		s.stop() // a previous call's context killed it after its last read
	}
	s.ctx = ctx
	s.mu.Unlock()
	s.kill.Lock()
	s.kill.watch++
	watch := s.kill.watch
	s.kill.Unlock()
	unhook := context.AfterFunc(ctx, func() {
		s.kill.Lock()
		defer s.kill.Unlock()
		if s.kill.watch == watch && s.kill.proc != nil {
			s.kill.proc.kill()
		}
	})
	return func() {
		unhook()
		s.kill.Lock()
		s.kill.watch++ // a late kill of this call's context is ignored
		s.kill.Unlock()
		s.mu.Lock()
		s.ctx = nil
		s.mu.Unlock()
	}
}

// EncodedObject reads object h; t, unless AnyObject, is the type it must
// have, as in go-git's storage.
func (s *catFileStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	var obj *rawObject
	err := s.request(func(p *catFile) error {
		typ, data, err := p.object(h, s.limit)
		if err == nil {
			obj = &rawObject{h: h, t: typ, data: data}
		}
		return err
	})
	switch {
	case errors.Is(err, errUseGoGit):
		return s.packStore.EncodedObject(t, h)
	case err != nil:
		return nil, err
	case t != plumbing.AnyObject && obj.t != t:
		return nil, plumbing.ErrObjectNotFound
	}
	return obj, nil
}

// HasEncodedObject reports plumbing.ErrObjectNotFound when h is missing.
func (s *catFileStore) HasEncodedObject(h plumbing.Hash) error {
	_, err := s.EncodedObjectSize(h)
	return err
}

// EncodedObjectSize returns the size of object h's content.
func (s *catFileStore) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	var size int64
	err := s.request(func(p *catFile) (err error) {
		_, size, err = p.size(h)
		return err
	})
	if errors.Is(err, errUseGoGit) {
		return s.packStore.EncodedObjectSize(h)
	}
	return size, err
}

// errUseGoGit says git is unusable and go-git reads the object.
var errUseGoGit = errors.New("read with go-git")

// request runs one request on git, starting it again after a stop. A missing
// object is an answer; when the call's context is done the request fails
// with its error; any other failure leaves git for go-git (errUseGoGit).
func (s *catFileStore) request(do func(*catFile) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil {
		return errUseGoGit
	}
	if err := s.ctxErr(); err != nil {
		return err
	}
	if !s.running() {
		return errUseGoGit
	}
	err := do(s.proc)
	switch {
	case err == nil || errors.Is(err, plumbing.ErrObjectNotFound):
		if s.reads++; s.reads == s.handover {
			s.stop()
			s.broken = errHandedOver
		}
		return err
	case errors.Is(err, errObjectTooLarge):
		// git is still writing the object: a new git serves the next read.
		s.stop()
		return err
	}
	s.stop()
	if cerr := s.ctxErr(); cerr != nil {
		return cerr
	}
	s.broken = err
	return errUseGoGit
}

// start starts git ahead of the first read, so that its start-up (tens of
// milliseconds on a busy machine) overlaps with the caller's work.
func (s *catFileStore) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running()
}

// running starts git unless it runs or failed, and reports whether it
// runs. Called with mu held.
func (s *catFileStore) running() bool {
	if s.proc == nil && s.broken == nil {
		p, err := startCatFile(s.gitBin, s.gitDir)
		if err != nil {
			s.broken = err
			return false
		}
		s.setProc(p)
	}
	return s.broken == nil
}

// ctxErr is the call's context's error as a deadline error, nil while it
// runs. Called with mu held.
func (s *catFileStore) ctxErr() error {
	if s.ctx == nil || s.ctx.Err() == nil {
		return nil
	}
	return sdk.Errorf(sdk.KindDeadline, "git: reading objects stopped: %w", s.ctx.Err())
}

// stop kills git and waits for it. Called with mu held.
func (s *catFileStore) stop() {
	if s.proc == nil {
		return
	}
	s.proc.kill()
	s.proc.close()
	s.setProc(nil)
}

// setProc makes p the running git. Called with mu held.
func (s *catFileStore) setProc(p *catFile) {
	s.proc = p
	s.kill.Lock()
	s.kill.proc = p
	s.kill.Unlock()
}

// Close ends git and closes go-git's storage.
func (s *catFileStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		s.proc.close()
		s.setProc(nil)
	}
	return s.packStore.Close()
}

// rawObject is an object as git cat-file returns it. Its hash is the one
// asked for, not recomputed: git found the object under that name.
type rawObject struct {
	h    plumbing.Hash
	t    plumbing.ObjectType
	data []byte
}

// Hash is the name the object was asked for.
func (o *rawObject) Hash() plumbing.Hash { return o.h }

// Type is the object's type, as git said.
func (o *rawObject) Type() plumbing.ObjectType { return o.t }

// SetType changes the type; go-git calls it only on objects it writes.
func (o *rawObject) SetType(t plumbing.ObjectType) { o.t = t }

// Size is the content's length.
func (o *rawObject) Size() int64 { return int64(len(o.data)) }

// SetSize is a no-op: the size is the content's.
func (o *rawObject) SetSize(int64) {}

// Reader reads the content.
func (o *rawObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}

// Writer fails: the object is read-only.
func (o *rawObject) Writer() (io.WriteCloser, error) {
	return nil, fmt.Errorf("git: object %s read from git cat-file is read-only", o.h)
}
