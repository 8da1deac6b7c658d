package plugin

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// memfdCopy is the Linux sealed copy: an anonymous memory file, sealed
// against every change once written (F_SEAL_WRITE, SHRINK, GROW, SEAL), and
// executed through /proc/self/fd/3 in the child. Unlike executing the
// opened original through its descriptor, which still runs whatever is
// written into that inode after hashing, nobody (not even this user) can
// change a sealed memfd.
type memfdCopy struct{ file *os.File }

// newSealedCopy returns a sealed memfd, or a private file copy where memfd
// cannot be executed (no memfd_create, vm.memfd_noexec, no /proc).
func newSealedCopy(name string) (sealedCopy, error) {
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		if fd, err := memfd(name); err == nil {
			return &memfdCopy{file: os.NewFile(uintptr(fd), "memfd:"+name)}, nil
		}
	}
	return newFileCopy(name)
}

func memfd(name string) (int, error) {
	const flags = unix.MFD_CLOEXEC | unix.MFD_ALLOW_SEALING
	fd, err := unix.MemfdCreate(name, flags|unix.MFD_EXEC)
	if errors.Is(err, unix.EINVAL) { // kernels before 6.3 know no MFD_EXEC
		fd, err = unix.MemfdCreate(name, flags)
	}
	return fd, err
}

func (c *memfdCopy) Write(p []byte) (int, error) { return c.file.Write(p) }

func (c *memfdCopy) finish() (*sealedBinary, error) {
	const seals = unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(c.file.Fd(), unix.F_ADD_SEALS, seals); err != nil {
		_ = c.file.Close()
		return nil, err
	}
	f := c.file
	return &sealedBinary{
		exec:    "/proc/self/fd/3", // the copy is the child's ExtraFiles[0]
		extra:   f,
		release: func() { _ = f.Close() },
	}, nil
}

func (c *memfdCopy) discard() { _ = c.file.Close() }
