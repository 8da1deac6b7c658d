// Command nous turns questions about a software project into reasoning
// plans, runs them against data sources and agents, and reports with a trace.
package main

import (
	"io"
	"os"
	"sync"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the CLI and returns its exit code. Tests call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	a := &app{stdin: stdin, stdout: stdout, stderr: &lockedWriter{w: stderr}, getenv: os.Getenv, environ: os.Environ}
	return a.execute(args)
}

// lockedWriter serialises writes: the engine's logs, the plugin host's,
// progress and warnings reach stderr from several goroutines, and a
// writer such as a test's buffer is not safe for that.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
