package main

import (
	"io"
	"strings"
	"testing"
)

// BenchmarkPlanCommand is `nous plan QUESTION` on the embedded defaults,
// in-process: the host's start-up work after package init.
func BenchmarkPlanCommand(b *testing.B) {
	b.Chdir(b.TempDir()) // no nous.hcl or .nous: the embedded defaults
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"plan", "what changed in this repository last week?"}, strings.NewReader(""), io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
