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
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "run-" + start.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
