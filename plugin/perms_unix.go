//go:build unix

package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// checkOwnership refuses a plugin binary that someone other than this user
// (or root) could change, as ssh refuses a key others can write: the binary
// and the directory holding it must be owned by this user or root and not
// writable by group or others. A symlink is followed, and both ends are
// checked.
func checkOwnership(path string) error {
	paths := []string{path, filepath.Dir(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		paths = append(paths, real, filepath.Dir(real))
	}
	for _, p := range paths {
		if err := checkOwner(p); err != nil {
			return fmt.Errorf("refusing to run plugin binary %s: %w", path, err)
		}
	}
	return nil
}

func checkOwner(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	what := "it"
	if fi.IsDir() {
		what = "its directory " + path
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if uid := int(st.Uid); uid != 0 && uid != os.Geteuid() {
			return fmt.Errorf("%s is owned by uid %d, not by you (uid %d) or root", what, uid, os.Geteuid())
		}
	}
	mode := fi.Mode()
	switch {
	case mode&0o002 != 0:
		return fmt.Errorf("%s is writable by others (mode %s; chmod o-w %s)", what, mode.Perm(), path)
	case mode&0o020 != 0:
		return fmt.Errorf("%s is writable by its group (mode %s; chmod g-w %s)", what, mode.Perm(), path)
	}
	return nil
}
