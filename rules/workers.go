package rules

import (
	"runtime"
	"sync"
)

// workers runs the expensive, independent parts of a load (parsing files,
// compiling conditions, patterns and templates) beside the goroutine that
// decodes, so every processor works through the whole load rather than
// only in its parallel phases. There are GOMAXPROCS-1 worker goroutines:
// the decoding goroutine is the last worker, taking tasks whenever it
// would otherwise wait.
type workers struct {
	tasks chan func()
	wg    sync.WaitGroup
}

// startWorkers starts the goroutines; with one processor there are none and
// every task runs at once, in the caller.
func startWorkers() *workers {
	w := &workers{}
	n := runtime.GOMAXPROCS(0) - 1
	if n < 1 {
		return w
	}
	w.tasks = make(chan func(), 256)
	for range n {
		go func() {
			for task := range w.tasks {
				w.do(task)
			}
		}()
	}
	return w
}

func (w *workers) do(task func()) {
	task()
	w.wg.Done()
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

// await blocks until done is closed, running scheduled tasks meanwhile.
func (w *workers) await(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case task := <-w.tasks: // a nil channel (no workers) never delivers
			w.do(task)
		}
	}
}

// stop runs or waits for every task scheduled so far and ends the
// goroutines.
func (w *workers) stop() {
	if w.tasks != nil {
		close(w.tasks)
		for task := range w.tasks {
			w.do(task)
		}
	}
	w.wg.Wait()
}
