package git

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// racyWindow is how long after its last change a directory's listing is
// taken on trust: a change within the same tick of the file system's clock
// (milliseconds; a second or two on some file systems) keeps the time
// stamp, so a listing read that soon is read again next time.
const racyWindow = 3 * time.Second

// dirStamp is a directory's state as far as its entries go: adding or
// removing one sets its modification time.
type dirStamp struct {
	mtime time.Time
	size  int64
}

// listing is when a directory was listed: its stamp, and whether the
// listing holds while the stamp is unchanged.
type listing struct {
	stamp   dirStamp
	settled bool
}

// fresh reports whether l still describes the directory whose stat is fi.
func (l listing) fresh(fi os.FileInfo) bool {
	return l.settled && l.stamp == dirStamp{mtime: fi.ModTime(), size: fi.Size()}
}

// listed is the listing of a directory whose stat, taken at now before
// reading it, is fi; it is settled when the directory last changed more
// than window (racyWindow but in tests) before.
func listed(fi os.FileInfo, now time.Time, window time.Duration) listing {
	return listing{stamp: dirStamp{mtime: fi.ModTime(), size: fi.Size()}, settled: fi.ModTime().Before(now.Add(-window))}
}

// objectNames keeps, across fetches, the object names display ids are
// computed from: the pack indexes, which loose object directories exist
// and the names in each. A long-running plugin thus checks a directory
// with a stat, where listing it cost an open and a read: two stats a
// fetch in a packed repository, where there was one listing per display
// id's first byte. Each listing is reused while its directory's stamp is
// unchanged and was already older than racyWindow when it was read; else
// it is read again. Configure starts a new one.
type objectNames struct {
	dir    string        // the objects directory
	window time.Duration // racyWindow but in tests

	mu sync.Mutex
	// packs are the pack indexes listed in dir/pack; a pack never changes
	// under its name.
	packDir listing
	packs   []*packIndex
	// top lists dir; present are the loose object directories in it.
	top     listing
	present [256]bool
	loose   [256]looseDir
}

// looseDir is a loose object directory's listing.
type looseDir struct {
	listing
	names []plumbing.Hash
}

func newObjectNames(gitDir string) *objectNames {
	return &objectNames{dir: objectsDir(gitDir), window: racyWindow}
}

// check brings the pack list and the list of loose object directories up
// to date and returns the pack indexes (version 2).
func (o *objectNames) check() ([]*packIndex, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.checkPacks(); err != nil {
		return nil, err
	}
	return o.packs, o.checkTop()
}

// checkPacks lists dir/pack again unless its listing is fresh, reading the
// fan-out table of every pack index not known yet.
func (o *objectNames) checkPacks() error {
	dir := filepath.Join(o.dir, "pack")
	now := time.Now()
	fi, err := os.Stat(dir)
	switch {
	case isNotExist(err):
		o.packDir, o.packs = listing{}, nil
		return nil
	case err != nil:
		return err
	case o.packDir.fresh(fi):
		return nil
	}
	names, err := readDirNames(dir)
	if err != nil {
		return err
	}
	known := make(map[string]*packIndex, len(o.packs))
	for _, p := range o.packs {
		known[p.name] = p
	}
	var packs []*packIndex
	for _, name := range names {
		if !strings.HasSuffix(name, ".idx") {
			continue
		}
		path := filepath.Join(dir, name)
		p, ok := known[path]
		if !ok {
			if p, err = readIdxFanout(path); err != nil {
				return err
			}
		}
		packs = append(packs, p)
	}
	o.packDir, o.packs = listed(fi, now, o.window), packs
	return nil
}

// checkTop lists dir again unless its listing is fresh: which loose object
// directories exist.
func (o *objectNames) checkTop() error {
	now := time.Now()
	fi, err := os.Stat(o.dir)
	switch {
	case isNotExist(err):
		o.top, o.present = listing{}, [256]bool{}
		return nil
	case err != nil:
		return err
	case o.top.fresh(fi):
		return nil
	}
	names, err := readDirNames(o.dir)
	if err != nil {
		return err
	}
	var present [256]bool
	for _, name := range names {
		if b, ok := fanoutByte(name); ok {
			present[b] = true
		}
	}
	o.top, o.present = listed(fi, now, o.window), present
	return nil
}

// looseWith lists the loose objects whose name starts with the byte b,
// reading their directory again unless its listing is fresh. The list of
// directories is the last check's.
func (o *objectNames) looseWith(b byte) ([]plumbing.Hash, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.present[b] {
		return nil, nil
	}
	sub := hex.EncodeToString([]byte{b})
	dir := filepath.Join(o.dir, sub)
	now := time.Now()
	fi, err := os.Stat(dir)
	switch {
	case isNotExist(err):
		return nil, nil // removed since the check
	case err != nil:
		return nil, err
	case o.loose[b].fresh(fi):
		return o.loose[b].names, nil
	}
	names, err := readDirNames(dir)
	if err != nil && !isNotExist(err) {
		return nil, err
	}
	var hs []plumbing.Hash
	for _, name := range names {
		if h, ok := parseHash(sub + name); ok {
			hs = append(hs, h)
		}
	}
	o.loose[b] = looseDir{listing: listed(fi, now, o.window), names: hs}
	return hs, nil
}

// fanoutByte reads a loose object directory's name: two hex digits.
func fanoutByte(name string) (byte, bool) {
	var b [1]byte
	if len(name) != 2 {
		return 0, false
	}
	if _, err := hex.Decode(b[:], []byte(name)); err != nil {
		return 0, false
	}
	return b[0], true
}
