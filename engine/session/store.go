package session

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds limit what a store keeps.
type Bounds struct {
	MaxTurns       int           // turns per session, the oldest dropped
	MaxAnswerBytes int           // bytes of each answer
	MaxSessions    int           // sessions, the least recently updated removed
	MaxAge         time.Duration // a session not updated this long is removed
}

// maxFileBytes bounds a session file read: a file larger than any session
// the bounds allow is not one nous wrote.
const maxFileBytes = 16 << 20

// lockWait bounds waiting for another process's append; lockStale is the
// age at which a lock file is taken to be left by a process that died.
const (
	lockWait  = 10 * time.Second
	lockStale = time.Minute
)

// Store keeps sessions as one JSON file each (ID.json, mode 0600) in a
// directory (mode 0700). Appends are serialised by a lock file (ID.lock)
// and each rewrites its file atomically (a temporary file renamed over
// it), so readers never see half a session and concurrent appends lose no
// turn; loads take no lock.
//
// A session's age is the time since its file was last written, on the
// real clock (NOUS_NOW fixes only what the runs see).
type Store struct {
	dir    string
	bounds Bounds
}

// NewStore returns the store in dir with bounds.
func NewStore(dir string, bounds Bounds) *Store {
	return &Store{dir: dir, bounds: bounds}
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(id string) string { return filepath.Join(s.dir, id+".json") }

// Load returns session id, or a new empty one when it does not exist or
// is older than MaxAge. A bad ID, an unreadable or corrupt file is an
// error naming the file.
func (s *Store) Load(id string) (*Session, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(s.path(id)); err == nil && s.expired(fi.ModTime()) {
		return &Session{Version: fileVersion, ID: id, Expired: true}, nil
	}
	sess, err := s.read(id)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Session{Version: fileVersion, ID: id}, nil
	case err != nil:
		return nil, err
	}
	return sess, nil
}

// expired reports whether a file last written at mod is older than MaxAge.
func (s *Store) expired(mod time.Time) bool {
	return s.bounds.MaxAge > 0 && time.Since(mod) > s.bounds.MaxAge
}

// Read returns the stored session id: an error when there is none, unlike
// Load.
func (s *Store) Read(id string) (*Session, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	sess, err := s.read(id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("session %q: no such session in %s", id, s.dir)
	}
	return sess, err
}

// read decodes the file of session id.
func (s *Store) read(id string) (*Session, error) {
	p := s.path(id)
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("session %q: %w", id, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("session %q: reading %s: %w", id, p, err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("session %q: %s is larger than %d MiB, not a session file; remove it (nous sessions rm %s)", id, p, maxFileBytes>>20, id)
	}
	var sess Session
	if err := json.Unmarshal(data, &sess); err != nil {
		return nil, fmt.Errorf("session %q: %s is not a session file (%v); remove it (nous sessions rm %s)", id, p, err, id)
	}
	if sess.Version != fileVersion || sess.ID != id {
		return nil, fmt.Errorf("session %q: %s is not a version %d session file for %q; remove it (nous sessions rm %s)", id, p, fileVersion, id, id)
	}
	return &sess, nil
}

// Append adds t to session id (creating it), drops the turns beyond
// MaxTurns, cuts the answer to MaxAnswerBytes, and removes the sessions
// beyond MaxSessions and MaxAge. Two processes appending to one session
// both keep their turn, in the order they append.
func (s *Store) Append(id string, t Turn) error {
	if err := CheckID(id); err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("session %q: %w", id, err)
	}
	unlock, err := s.lock(id)
	if err != nil {
		return err
	}
	defer unlock()
	sess, err := s.Load(id)
	if err != nil {
		return err
	}
	if t.At.IsZero() {
		t.At = time.Now()
	}
	if sess.Created.IsZero() {
		sess.Created = t.At
	}
	t.Answer = cut(t.Answer, s.bounds.MaxAnswerBytes)
	sess.Turns = append(sess.Turns, t)
	if n := len(sess.Turns) - s.bounds.MaxTurns; s.bounds.MaxTurns > 0 && n > 0 {
		sess.Turns = slices.Delete(sess.Turns, 0, n)
		sess.Dropped += n
	}
	sess.Updated = t.At
	if err := s.write(sess); err != nil {
		return err
	}
	return s.prune(id)
}

// write replaces the session's file atomically.
func (s *Store) write(sess *Session) error {
	data, err := json.MarshalIndent(sess, "", "  ")
	if err != nil {
		return fmt.Errorf("session %q: %w", sess.ID, err)
	}
	tmp, err := os.CreateTemp(s.dir, "."+sess.ID+".*.tmp") // 0600
	if err != nil {
		return fmt.Errorf("session %q: %w", sess.ID, err)
	}
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path(sess.ID))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("session %q: writing %s: %w", sess.ID, s.path(sess.ID), err)
	}
	return nil
}

// lock takes session id's lock file, waiting for another holder up to
// lockWait and breaking a lock older than lockStale.
func (s *Store) lock(id string) (func(), error) {
	p := filepath.Join(s.dir, id+".lock")
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("session %q: locking: %w", id, err)
		}
		if fi, serr := os.Stat(p); serr == nil && time.Since(fi.ModTime()) > lockStale {
			os.Remove(p) // left by a process that died mid-append
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("session %q: %s is held by another nous for more than %s; remove it if no nous is running", id, p, lockWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Info describes a stored session without its turns.
type Info struct {
	ID      string    `json:"id"`
	Turns   int       `json:"turns"`
	Updated time.Time `json:"updated"`
	Last    string    `json:"last_query,omitempty"`
}

// List returns the stored sessions, most recently updated first, and an
// error naming each file that is not a readable session (skipped: one
// foreign or corrupt file does not hide the others); err is the directory's.
func (s *Store) List() (list []Info, unreadable []error, err error) {
	ids, err := s.ids()
	if err != nil {
		return nil, nil, err
	}
	out := make([]Info, 0, len(ids))
	for _, id := range ids {
		sess, err := s.read(id)
		if err != nil {
			unreadable = append(unreadable, err)
			continue
		}
		in := Info{ID: id, Turns: sess.Dropped + len(sess.Turns), Updated: sess.Updated}
		if t := sess.Last(); t != nil {
			in.Last = t.Query
		}
		out = append(out, in)
	}
	slices.SortFunc(out, func(a, b Info) int { return cmp.Or(b.Updated.Compare(a.Updated), strings.Compare(a.ID, b.ID)) })
	return out, unreadable, nil
}

// Remove deletes session id.
func (s *Store) Remove(id string) error {
	if err := CheckID(id); err != nil {
		return err
	}
	if err := os.Remove(s.path(id)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("session %q: no such session in %s", id, s.dir)
		}
		return fmt.Errorf("session %q: %w", id, err)
	}
	return nil
}

// ids are the IDs of the session files in the store.
func (s *Store) ids() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && e.Type().IsRegular() && CheckID(id) == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// prune removes the sessions, but keep, older than MaxAge and the least
// recently written beyond MaxSessions, by file modification time.
func (s *Store) prune(keep string) error {
	ids, err := s.ids()
	if err != nil {
		return err
	}
	type file struct {
		id  string
		mod time.Time
	}
	var files []file
	for _, id := range ids {
		fi, err := os.Stat(s.path(id))
		if err != nil {
			continue // removed meanwhile
		}
		if id != keep && s.expired(fi.ModTime()) {
			os.Remove(s.path(id))
			continue
		}
		files = append(files, file{id, fi.ModTime()})
	}
	slices.SortFunc(files, func(a, b file) int {
		return cmp.Or(boolOrder(a.id == keep, b.id == keep), b.mod.Compare(a.mod), strings.Compare(a.id, b.id))
	})
	for _, f := range files[min(len(files), max(s.bounds.MaxSessions, 1)):] {
		if err := os.Remove(s.path(f.id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sessions: pruning %s: %w", f.id, err)
		}
	}
	return nil
}

// boolOrder sorts true first.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// cut returns s cut to at most n bytes at a rune boundary, marked with "…"
// when cut (n ≤ 0 keeps it whole).
func cut(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	mark := "…"
	if n < len(mark) {
		mark = ""
	}
	end := n - len(mark)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + mark
}
