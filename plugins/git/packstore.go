package git

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// packStore is go-git's storage of a repository directory that sees the
// packs git writes after it indexed them. go-git indexes the pack files
// on the first packed object it reads and keeps the index: in a long-
// running plugin every object of a pack written later (by a fetch, gc or
// repack) was missing. Like git, it looks again on a miss: when the pack
// directory changed since its last look (see listing), it forgets the
// index and the pack files it holds open and reads again.
type packStore struct {
	*filesystem.Storage
	packDir string

	mu   sync.Mutex
	seen listing // of packDir, when the index was last forgotten
}

func newPackStore(st *filesystem.Storage, gitDir string) *packStore {
	return &packStore{Storage: st, packDir: filepath.Join(objectsDir(gitDir), "pack")}
}

// EncodedObject reads object h, looking at the packs again on a miss.
func (s *packStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := s.Storage.EncodedObject(t, h)
	if err != nil && s.packsChanged() {
		return s.Storage.EncodedObject(t, h)
	}
	return o, err
}

// EncodedObjectSize returns the size of object h, looking at the packs
// again on a miss.
func (s *packStore) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	size, err := s.Storage.EncodedObjectSize(h)
	if err != nil && s.packsChanged() {
		return s.Storage.EncodedObjectSize(h)
	}
	return size, err
}

// HasEncodedObject reports plumbing.ErrObjectNotFound when h is missing,
// looking at the packs again first.
func (s *packStore) HasEncodedObject(h plumbing.Hash) error {
	err := s.Storage.HasEncodedObject(h)
	if err != nil && s.packsChanged() {
		return s.Storage.HasEncodedObject(h)
	}
	return err
}

// HashesWithPrefix lists the objects whose names start with prefix (a
// short id), looking at the packs again when there is none.
func (s *packStore) HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error) {
	hs, err := s.Storage.HashesWithPrefix(prefix)
	if (err != nil || len(hs) == 0) && s.packsChanged() {
		return s.Storage.HashesWithPrefix(prefix)
	}
	return hs, err
}

// packsChanged reports whether the pack directory changed since the last
// look, and if so forgets the index and closes the pack files: a repack
// deletes the packs it replaces.
func (s *packStore) packsChanged() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	fi, err := os.Stat(s.packDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		fi = nil
	case err != nil:
		return false
	}
	if fi != nil && s.seen.fresh(fi) {
		return false
	}
	if fi != nil {
		s.seen = listed(fi, now, racyWindow)
	}
	_ = s.Storage.Close()
	s.Storage.Reindex()
	return true
}
