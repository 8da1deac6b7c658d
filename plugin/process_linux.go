package plugin

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel kill the plugin if the host dies without
// stopping it (SIGKILL, a crash): no plugin outlives its host.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
