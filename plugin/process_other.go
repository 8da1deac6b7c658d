//go:build !linux

package plugin

import "os/exec"

// setDeathSignal is a no-op where the kernel offers no parent-death signal;
// Manager.Close and the sdk's own host watch stop plugins there.
func setDeathSignal(*exec.Cmd) {}
