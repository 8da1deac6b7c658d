package devserver

import (
	"syscall"
)

// sysProcAttr starts the server as the leader of its own process group and
// has the kernel kill it if the test binary dies without cleaning up (a
// timeout's panic, SIGKILL).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
