//go:build unix

package file

import (
	"os"
	"syscall"
)

// inodeOf is fi's inode number, 0 if unknown.
func inodeOf(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino) // uint32 on some systems
	}
	return 0
}
