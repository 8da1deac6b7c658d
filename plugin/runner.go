package plugin

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin/runner"
)

// drainDelay bounds how long a runner waits, after the process (and its
// process group) ended, for its stdout and stderr to reach EOF: a
// descendant that left the group may hold them open.
const drainDelay = 2 * time.Second

// forwardMax bounds a stdout line handed to go-plugin's handshake reader,
// whose line limit is 64 KiB; the whole line still counts in the tail.
const forwardMax = 4 << 10

// procRunner runs one plugin process for go-plugin: in its own process
// group, from a sealed copy when a digest was checked, with its stdout and
// stderr read here into the plugin's log and bounded tails. Reading them
// here, and finishing before Wait returns, is what makes the tails
// complete when go-plugin reports the process gone.
type procRunner struct {
	cmd    *exec.Cmd
	name   string // the plugin's path, for messages
	log    *pluginLog
	sealed *sealedBinary // nil when the binary runs from its path
	// socketDir is go-plugin's directory for the plugin's socket. go-plugin
	// removes it only when it kills a started process: Start removes it
	// when the process does not start.
	socketDir string

	handshake *io.PipeReader // what go-plugin reads for the handshake
	outR      *os.File
	errR      *os.File
	readers   sync.WaitGroup

	mu      sync.Mutex
	killed  bool // Kill came first: the process must not start
	started bool
	reaped  bool          // the process was waited for: its group id may be reused
	done    chan struct{} // closed once the process ended and its output drained
	err     error
}

var _ runner.Runner = (*procRunner)(nil)

// newRunner prepares to run l; go-plugin sets the environment.
func newRunner(l launch, sealed *sealedBinary, log *pluginLog) *procRunner {
	path := l.Path
	if sealed != nil {
		path = sealed.exec
	}
	cmd := &exec.Cmd{
		Path: path,
		Args: append([]string{l.Path}, l.Args...), // argv[0] names the plugin, not the copy
	}
	if sealed != nil && sealed.extra != nil {
		cmd.ExtraFiles = []*os.File{sealed.extra}
	}
	setProcessGroup(cmd)
	return &procRunner{cmd: cmd, name: l.Path, log: log, sealed: sealed, done: make(chan struct{})}
}

// Start starts the process with its output on pipes read by this runner.
func (r *procRunner) Start(context.Context) error {
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return err
	}
	r.cmd.Stdout, r.cmd.Stderr = outW, errW
	r.mu.Lock()
	err = errKilledBeforeStart
	if !r.killed {
		err = r.cmd.Start()
	}
	r.started = err == nil
	r.mu.Unlock()
	closeAll(outW, errW) // the child holds its own copies
	if err != nil {
		closeAll(outR, errR)
		r.release()
		if r.socketDir != "" {
			_ = os.RemoveAll(r.socketDir)
		}
		return err
	}
	r.outR, r.errR = outR, errR
	hsR, hsW := io.Pipe()
	r.handshake = hsR
	r.readers.Go(func() { readLines(errR, r.log.record) })
	r.readers.Go(func() { r.forwardStdout(hsW) })
	go r.wait()
	return nil
}

// forwardStdout records each stdout line in the tail and hands go-plugin
// the line, clipped, for its handshake reader.
func (r *procRunner) forwardStdout(hs *io.PipeWriter) {
	forward := true
	readLines(r.outR, func(line []byte, size int) {
		r.log.stdoutLine(line, size)
		if !forward {
			return
		}
		clipped := append(line[:min(len(line), forwardMax):min(len(line), forwardMax)], '\n')
		if _, err := hs.Write(clipped); err != nil {
			forward = false // go-plugin stopped reading; keep draining
		}
	})
	_ = hs.Close()
}

// wait ends the process's group once the process has exited, drains its
// output, and reaps it.
func (r *procRunner) wait() {
	reaped, err := waitExit(r.cmd)
	r.mu.Lock()
	killGroup(r.cmd.Process)
	if !reaped {
		err = r.cmd.Wait()
	}
	r.err, r.reaped = err, true
	r.mu.Unlock()

	drained := make(chan struct{})
	go func() { r.readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainDelay):
		closeAll(r.outR, r.errR) // something outside the group holds them
		<-drained
	}
	closeAll(r.outR, r.errR)
	r.release()
	close(r.done)
}

func (r *procRunner) release() {
	if r.sealed != nil {
		r.sealed.release()
	}
}

// Wait waits until the process ended and its output is read.
func (r *procRunner) Wait(context.Context) error {
	<-r.done
	return r.err
}

// errKilledBeforeStart is Start's error once Kill has been called.
var errKilledBeforeStart = errors.New("the plugin was stopped before it started")

// Kill kills the process and its group at once. Called before Start, it
// keeps the process from starting: a start abandoned while go-plugin was
// still on its way to Start must not launch a process nobody stops.
func (r *procRunner) Kill(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.killed = true
	if r.started && !r.reaped {
		killGroup(r.cmd.Process)
	}
	return nil
}

// exitStatus is "exit status N" once the process has exited by itself, ""
// while it runs or when a signal killed it.
func (r *procRunner) exitStatus() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.cmd.ProcessState
	if !r.reaped || st == nil || !st.Exited() {
		return ""
	}
	return st.String()
}

// pid is the process id, 0 before it started.
func (r *procRunner) pid() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started {
		return 0
	}
	return r.cmd.Process.Pid
}

// Stdout is the stream go-plugin reads the handshake from.
func (r *procRunner) Stdout() io.ReadCloser { return r.handshake }

// Stderr is empty: this runner reads stderr itself.
func (r *procRunner) Stderr() io.ReadCloser { return io.NopCloser(strings.NewReader("")) }

// Name is the plugin binary's path.
func (r *procRunner) Name() string { return r.name }

// ID is the process id.
func (r *procRunner) ID() string {
	if pid := r.pid(); pid != 0 {
		return strconv.Itoa(pid)
	}
	return ""
}

// Diagnose adds nothing: the crash note says what the plugin printed.
func (r *procRunner) Diagnose(context.Context) string { return "" }

// PluginToHost keeps addresses as they are: the plugin runs on this host.
func (r *procRunner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

// HostToPlugin keeps addresses as they are.
func (r *procRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			_ = f.Close()
		}
	}
}
