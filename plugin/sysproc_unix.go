//go:build unix && !linux

package plugin

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup starts the plugin as the leader of its own process group,
// so its children can be ended with it. There is no parent-death signal
// here; Manager.Close and the sdk's own host watch stop plugins.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// waitExit waits for the process and reaps it; its group is killed
// right after (a group's id is not reused while the group has members).
func waitExit(cmd *exec.Cmd) (reaped bool, err error) { return true, cmd.Wait() }

// killGroup kills p's process group: p and every descendant still in it.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
