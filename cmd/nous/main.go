// Command nous turns questions about a software project into reasoning
// plans, runs them against data sources and agents, and reports with a trace.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the CLI and returns its exit code. Tests call it in-process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, environ: os.Environ}
	return a.execute(args)
}
