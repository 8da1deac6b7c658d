package plugin

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setProcessGroup starts the plugin as the leader of its own process group,
// so its children can be ended with it, and has the kernel kill it if the
// host dies without stopping it (SIGKILL, a crash).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// waitExit blocks until the process has exited, without reaping it
// (waitid WNOWAIT): until it is reaped, its pid, its group's id, cannot be
// reused, so killing the group cannot hit another process.
func waitExit(cmd *exec.Cmd) (reaped bool, err error) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return false, nil
		}
	}
}

// killGroup kills p's process group: p and every descendant still in it.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
