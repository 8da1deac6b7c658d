package rules

import (
	"runtime"
	"sync"
)

// workers runs the expensive, independent parts of a load (parsing files,
// compiling conditions, patterns and templates) on GOMAXPROCS goroutines
// while the caller goes on decoding, so both cores work through the whole
// load rather than only in its parallel phases.
type workers struct {
	tasks chan func()
	wg    sync.WaitGroup
}

// startWorkers starts the goroutines; with one processor there are none and
// every task runs at once, in the caller.
func startWorkers() *workers {
	w := &workers{}
	n := runtime.GOMAXPROCS(0)
	if n <= 1 {
		return w
	}
	w.tasks = make(chan func(), 256)
	for range n {
		go func() {
			for task := range w.tasks {
				task()
				w.wg.Done()
			}
		}()
	}
	return w
}

// run schedules task. When the queue is full the caller runs it itself:
// that is work done either way, and it never blocks the load.
func (w *workers) run(task func()) {
	if w.tasks != nil {
		w.wg.Add(1)
		select {
		case w.tasks <- task:
			return
		default:
			w.wg.Done()
		}
	}
	task()
}

// stop waits for every task scheduled so far and ends the goroutines.
func (w *workers) stop() {
	w.wg.Wait()
	if w.tasks != nil {
		close(w.tasks)
	}
}
