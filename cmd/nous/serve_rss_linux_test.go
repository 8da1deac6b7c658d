package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// serveRSS is the resident size of the server pid and the sum of its
// plugin processes', in kB; zeros where /proc cannot tell.
func serveRSS(b *testing.B, pid int) (host, plugins int64) {
	rss := func(pid int) int64 {
		status, err := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "status"))
		if err != nil {
			return 0
		}
		return kB(status, "VmRSS:")
	}
	for _, child := range children(b, pid, "plugin serve") {
		plugins += rss(child)
	}
	return rss(pid), plugins
}
