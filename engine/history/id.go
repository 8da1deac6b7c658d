package history

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewID names a run: "run-" + its start time (UTC, to the second) + "-" +
// 8 random hex digits. The random part keeps runs that start in the same
// second, or share a fixed clock, apart.
func NewID(start time.Time) string {
	var r [4]byte
	_, _ = rand.Read(r[:]) // crypto/rand.Read never fails on supported platforms
	var b [len("run-20060102T150405Z-") + 2*len(r)]byte
	id := start.UTC().AppendFormat(append(b[:0], "run-"...), "20060102T150405Z")
	id = append(id, '-')
	return string(hex.AppendEncode(id, r[:])) // one allocation: the string
}
