//go:build unix

package devserver

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// terminate asks p's process group to stop.
func terminate(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGTERM) }

// kill kills p's process group: p and every descendant still in it.
func kill(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}

// isExec reports whether fi is executable by someone.
func isExec(fi fs.FileInfo) error {
	if fi.Mode()&0o111 == 0 {
		return errors.New("is not executable")
	}
	return nil
}

// exeName is name as an executable file is called here.
func exeName(name string) string { return name }
