//go:build linux

package host2plugin

import (
	"os"

	"golang.org/x/sys/unix"
)

// directStderr points the descriptor behind os.Stderr back at the process's
// own stderr (fd 2). go-plugin's Serve swaps os.Stderr for a pipe that it
// forwards to the host over gRPC, and whatever is in that pipe when the
// plugin exits is lost; the host reads fd 2 itself, line by line, so a
// plugin's last words written there always arrive. In-process serving
// (sdktest) leaves os.Stderr alone, and then this does nothing.
func directStderr() {
	fd := int(os.Stderr.Fd())
	if fd == 2 {
		return
	}
	// Dup3, not Dup2: linux/arm64 has only the former.
	_ = unix.Dup3(2, fd, unix.O_CLOEXEC)
}
