package plugin_test

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// processAlive reports whether pid is a live process. A zombie (exited,
// not yet reaped by whoever inherited it) counts as gone.
func processAlive(pid int) bool {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		// No /proc: ask the kernel.
		p, _ := os.FindProcess(pid)
		return p.Signal(syscall.Signal(0)) == nil
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state letter follows the parenthesized command name.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
