package git

import (
	"bytes"
	encbin "encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mathbits "math/bits"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// minAbbrev is the shortest display id, git's default for a small
// repository (see autoAbbrev).
const minAbbrev = 7

// fallbackAbbrev is the display id length when the object names cannot be
// read (an unusual storage): long enough to be unique in practice.
const fallbackAbbrev = 12

// maxIdxObjects bounds the object names read from one pack index.
const maxIdxObjects = 50_000_000

// abbrev finds the shortest unique prefix of an object name, as git's
// --abbrev does, from the pack indexes' sorted name tables and the loose
// object directories. One serves one fetch: it checks the directories on
// first use (see objectNames), so objects written since are seen by the
// next fetch.
type abbrev struct {
	names *objectNames // nil when the objects directory is unknown
	once  sync.Once
	packs []*packIndex
	least int // the digits a display id starts from (autoAbbrev)
	err   error
	mu    sync.Mutex
	loose map[byte][]plumbing.Hash
}

// packIndex is a version 2 pack index's fan-out table and the buckets of
// its sorted names read so far: the names sharing a first byte, 20 bytes
// each. A display id needs only its own bucket, so a fetch of a few
// commits reads a few buckets instead of every name of the pack: 42 KiB
// each, not 11 MB, for the 542,000 objects of a 35,000-commit repository.
type packIndex struct {
	name   string
	fanout [256]uint32
	mu     sync.Mutex
	bucket map[byte][]byte
}

// idxNamesAt is where a version 2 pack index's names start: after the
// magic, the version and the 256-entry fan-out table.
const idxNamesAt = 8 + 256*4

func newAbbrev(names *objectNames) *abbrev {
	return &abbrev{names: names, loose: map[byte][]plumbing.Hash{}}
}

// objectsDir is the objects directory of the repository gitDir: the
// common directory's in a linked worktree (its commondir file names it).
func objectsDir(gitDir string) string {
	common, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return filepath.Join(gitDir, "objects")
	}
	dir := strings.TrimSpace(string(common))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitDir, dir)
	}
	return filepath.Join(dir, "objects")
}

// short returns h's shortest unique prefix of at least the digits git's
// %h starts from (autoAbbrev).
func (a *abbrev) short(h plumbing.Hash) string {
	full := h.String()
	n, err := a.unique(h)
	if err != nil {
		return full[:fallbackAbbrev]
	}
	return full[:max(a.least, n)]
}

// autoAbbrev is the length git's %h starts from when core.abbrev is
// unset: half the bits of the packed objects' count, in hex digits, at
// least minAbbrev (git's repo_find_unique_abbrev_r; loose objects are not
// counted). 20,000 objects make 8 digits, 542,000 make 10.
func autoAbbrev(packed uint64) int {
	if packed == 0 {
		return minAbbrev
	}
	bits := 64 - mathbits.LeadingZeros64(packed) // the highest bit set, plus one
	return max(minAbbrev, (bits+1)/2)
}

// unique returns how many hex digits of h tell it apart from every other
// object in the repository.
func (a *abbrev) unique(h plumbing.Hash) (int, error) {
	if a == nil || a.names == nil {
		return 0, errors.New("git: no object directory to abbreviate against")
	}
	a.once.Do(func() {
		a.packs, a.err = a.names.check()
		var packed uint64
		for _, p := range a.packs {
			packed += uint64(p.fanout[255])
		}
		a.least = autoAbbrev(packed)
	})
	if a.err != nil {
		return 0, a.err
	}
	common := 0 // hex digits shared with the closest other object
	for _, p := range a.packs {
		names, err := p.names(h[0])
		if err != nil {
			return 0, err
		}
		common = max(common, closestInPack(names, h))
	}
	loose, err := a.looseWith(h[0])
	if err != nil {
		return 0, err
	}
	for _, o := range loose {
		if o != h {
			common = max(common, commonHex(o, h))
		}
	}
	return min(2*len(h), common+1), nil
}

// closestInPack returns the hex digits h shares with its sorted neighbours.
func closestInPack(names []byte, h plumbing.Hash) int {
	n := len(names) / 20
	i := sort.Search(n, func(i int) bool { return bytes.Compare(names[i*20:i*20+20], h[:]) >= 0 })
	common := 0
	for _, j := range []int{i - 1, i, i + 1} {
		if j < 0 || j >= n {
			continue
		}
		var o plumbing.Hash
		copy(o[:], names[j*20:j*20+20])
		if o != h {
			common = max(common, commonHex(o, h))
		}
	}
	return common
}

// commonHex counts the leading hex digits a and b share.
func commonHex(a, b plumbing.Hash) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i]>>4 == b[i]>>4 {
				return 2*i + 1
			}
			return 2 * i
		}
	}
	return 2 * len(a)
}

// readIdxFanout reads the fan-out table of a version 2 pack index: a
// 4-byte magic, a version, then for each first byte the number of names
// up to it, the last being the pack's object count.
func readIdxFanout(name string) (*packIndex, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head [idxNamesAt]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return nil, fmt.Errorf("git: reading pack index %s: %w", name, err)
	}
	if !bytes.Equal(head[:4], []byte{0xff, 't', 'O', 'c'}) || encbin.BigEndian.Uint32(head[4:8]) != 2 {
		return nil, fmt.Errorf("git: pack index %s is not version 2", name)
	}
	p := &packIndex{name: name, bucket: map[byte][]byte{}}
	for i := range p.fanout {
		p.fanout[i] = encbin.BigEndian.Uint32(head[8+4*i:])
		if i > 0 && p.fanout[i] < p.fanout[i-1] {
			return nil, fmt.Errorf("git: pack index %s has a decreasing fan-out table at %d", name, i)
		}
	}
	if count := p.fanout[255]; count > maxIdxObjects {
		return nil, fmt.Errorf("git: pack index %s lists %d objects, more than %d", name, count, maxIdxObjects)
	}
	return p, nil
}

// names returns the sorted names of the pack starting with the byte b,
// read on first use.
func (p *packIndex) names(b byte) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if names, ok := p.bucket[b]; ok {
		return names, nil
	}
	from := uint32(0)
	if b > 0 {
		from = p.fanout[b-1]
	}
	names := make([]byte, int(p.fanout[b]-from)*20)
	f, err := os.Open(p.name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.ReadAt(names, idxNamesAt+int64(from)*20); err != nil {
		return nil, fmt.Errorf("git: reading pack index %s: %w", p.name, err)
	}
	p.bucket[b] = names
	return names, nil
}

// looseWith lists the loose objects whose name starts with the byte b.
func (a *abbrev) looseWith(b byte) ([]plumbing.Hash, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if hs, ok := a.loose[b]; ok {
		return hs, nil
	}
	hs, err := a.names.looseWith(b)
	if err != nil {
		return nil, err
	}
	a.loose[b] = hs
	return hs, nil
}

// readDirNames lists the names in dir, without a stat of each.
func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

func isNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }

func parseHash(s string) (plumbing.Hash, bool) {
	var h plumbing.Hash
	if len(s) != 40 {
		return h, false
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return h, false
	}
	return h, true
}
