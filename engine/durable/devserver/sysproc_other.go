//go:build !unix

package devserver

import (
	"io/fs"
	"os"
	"syscall"
)

// sysProcAttr sets nothing where there are no process groups.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// terminate kills p: there is no SIGTERM to send here.
func terminate(p *os.Process) { _ = p.Kill() }

// kill kills p.
func kill(p *os.Process) { _ = p.Kill() }

// isExec accepts any file: the extension decides what runs.
func isExec(fs.FileInfo) error { return nil }

// exeName is name as an executable file is called here.
func exeName(name string) string { return name + ".exe" }
