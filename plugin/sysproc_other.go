//go:build !unix

package plugin

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where there are no process groups; only the
// plugin itself is killed there, not its children.
func setProcessGroup(*exec.Cmd) {}

// waitExit waits for the process and reaps it; its group is killed
// right after (a group's id is not reused while the group has members).
func waitExit(cmd *exec.Cmd) (reaped bool, err error) { return true, cmd.Wait() }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }
