package file

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// The file source reads regular files only, and none under the kernel's
// and the devices' trees (refusedRoots): /proc/self/environ is a regular
// file that holds every environment variable, and a device or a FIFO
// never ends or never answers. A path is checked after its symlinks are
// resolved, and what was opened is checked again, so swapping the file
// between the check and the open does not get around it.

// checkPath resolves p's symlinks and says why the file source must not
// read it, naming p (and what it resolves to when that differs).
func checkPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", sdk.Errorf(sdk.KindBadConfig, "file: %s: %v", p, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", sdk.Errorf(sdk.KindNotFound, "file: %s does not exist", p)
	case err != nil:
		return "", sdk.Errorf(sdk.KindBadConfig, "file: %s: %v", p, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", sdk.Errorf(sdk.KindBadConfig, "file: %s: %v", shown(p, real), err)
	}
	if err := refuse(shown(p, real), real, fi.Mode()); err != nil {
		return "", err
	}
	return real, nil
}

// openPath opens p for reading after checkPath, without following a
// symlink or waiting for a FIFO's writer, and checks what it opened.
func openPath(p string) (io.ReadCloser, error) {
	real, err := checkPath(p)
	if err != nil {
		return nil, err
	}
	return openChecked(p, real)
}

// openChecked opens real, what checkPath resolved p to, as openPath
// does. Checking p again first would add nothing: the file could be
// swapped after that check as after the first, and what was opened is
// checked either way.
func openChecked(p, real string) (io.ReadCloser, error) {
	f, err := os.OpenFile(real, os.O_RDONLY|openFlags, 0)
	if swappedForSymlink(err) {
		return nil, sdk.Errorf(sdk.KindBadConfig, "file: %s became a symlink after it was checked; the file source does not follow it", shown(p, real))
	}
	if err != nil {
		return nil, sdk.Errorf(sdk.KindBadConfig, "file: %v", err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = refuse(shown(p, real), real, fi.Mode())
	}
	if err == nil {
		err = refuseFS(f, shown(p, real))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// refuse says why a file of mode at real, shown as name, is not read.
func refuse(name, real string, mode fs.FileMode) error {
	if !mode.IsRegular() {
		return sdk.Errorf(sdk.KindBadConfig, "file: %s is %s, not a regular file; the file source reads only regular files", name, modeName(mode))
	}
	for _, root := range refusedRoots {
		if real == root || strings.HasPrefix(real, root+string(filepath.Separator)) {
			return sdk.Errorf(sdk.KindBadConfig, "file: %s is under %s; the file source never reads %s", name, root, strings.Join(refusedRoots, ", "))
		}
	}
	return nil
}

// shown is p as errors name it: with what it resolves to, when that differs.
func shown(p, real string) string {
	if abs, err := filepath.Abs(p); err == nil && abs == real {
		return p
	}
	return fmt.Sprintf("%s (resolved to %s)", p, real)
}

// modeName names a file type with its article.
func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "a special file"
}
