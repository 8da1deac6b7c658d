//go:build unix && !linux

package devserver

import "syscall"

// sysProcAttr starts the server as the leader of its own process group;
// there is no parent-death signal here, so only the test's cleanup stops it.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
