//go:build unix

package file

import (
	"errors"

	"golang.org/x/sys/unix"
)

// openFlags open without following a symlink swapped in after the check,
// and without blocking on a FIFO swapped in (the opened file's check then
// refuses it).
const openFlags = unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC

// refusedRoots are the trees of kernel, process and device files.
var refusedRoots = []string{"/proc", "/sys", "/dev"}

// swappedForSymlink reports whether an open with openFlags failed because
// the file had become a symlink.
func swappedForSymlink(err error) bool { return errors.Is(err, unix.ELOOP) }
