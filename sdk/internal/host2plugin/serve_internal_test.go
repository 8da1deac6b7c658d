package host2plugin

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestWatchHostCallsGoneOnceTheParentChanges(t *testing.T) {
	var ppid atomic.Int64
	ppid.Store(4242)
	gone := make(chan struct{})
	go watchHost(4242, func() int { return int(ppid.Load()) }, time.Millisecond, func() { close(gone) })

	select {
	case <-gone:
		t.Fatal("gone called while the parent is alive")
	case <-time.After(20 * time.Millisecond):
	}
	ppid.Store(1) // re-parented to init
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("gone never called")
	}
}
