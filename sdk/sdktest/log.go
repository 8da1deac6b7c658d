package sdktest

import (
	"strings"
	"sync"
	"testing"
)

// testLog writes plugin and host logs to the test's log until the test
// ends; later lines (a server winding down) are dropped, because t.Log
// after a test completes panics.
type testLog struct {
	mu      sync.Mutex
	t       testing.TB
	stopped bool
}

func newTestLog(t testing.TB) *testLog { return &testLog{t: t} }

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		l.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (l *testLog) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
}
