package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// procRun is the memory one run of a process tree took.
type procRun struct {
	Peaks map[int]procPeak // by pid, the nous processes only; empty where memory cannot be read
	Pss   int64            // the largest sum of Pss over the live nous processes, kB
}

// procPeak is the last peak resident size (VmHWM) seen of one process.
type procPeak struct {
	Role string // "host", or the NAME of `plugin serve NAME`
	HWM  int64  // kB
}

// procRole names a nous process by its NUL-separated command line.
func procRole(cmdline string) string {
	args := strings.Split(strings.TrimSuffix(cmdline, "\x00"), "\x00")
	if len(args) >= 4 && args[1] == "plugin" && args[2] == "serve" {
		return args[3]
	}
	return "host"
}

// String lists the processes' peaks by role, largest first.
func (r procRun) String() string {
	peaks := slices.SortedFunc(maps.Values(r.Peaks), func(a, b procPeak) int {
		return cmp.Or(cmp.Compare(b.HWM, a.HWM), strings.Compare(a.Role, b.Role))
	})
	parts := make([]string, len(peaks))
	for i, p := range peaks {
		parts[i] = fmt.Sprintf("%s %.1f MiB", p.Role, float64(p.HWM)/1024)
	}
	return strings.Join(parts, ", ")
}
