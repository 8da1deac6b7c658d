package main

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Peak memory of a nous process and the nous processes it starts, read from
// /proc while they run.

// pollEvery is how often the process tree is walked for new processes and
// the peak resident size of every nous process read. VmHWM only grows: what
// matters is a read shortly before the process ends. The sampling takes
// CPU: runs that are timed are not watched.
const pollEvery = time.Millisecond

// pssEvery is how many polls pass between two Pss samples: smaps_rollup
// walks the page tables (0.1-0.2 ms a process), so it is read less often.
const pssEvery = 10

// memoryUnavailable says why peak memory cannot be read here, or "".
var memoryUnavailable = sync.OnceValue(func() string {
	pid := strconv.Itoa(os.Getpid())
	if _, err := os.Stat("/proc/" + pid + "/task/" + pid + "/children"); err != nil {
		return "this kernel lists no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): " + err.Error()
	}
	return ""
})

// runWatched runs cmd to its end, sampling the peak resident memory of it
// and of its descendants that run the binary exe.
func runWatched(cmd *exec.Cmd, exe string) (procRun, error) {
	if memoryUnavailable() != "" {
		return procRun{}, cmd.Run()
	}
	if err := cmd.Start(); err != nil {
		return procRun{}, err
	}
	var done atomic.Bool
	sampled := make(chan *procTree)
	go func() {
		// A plugin that lives 40 ms must be seen even on a loaded machine:
		// the sampler asks for a higher priority where it may have one, on
		// a thread of its own that sleeps in the kernel, so that no Go
		// timer (run by another thread) has to wake it.
		runtime.LockOSThread()
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), -10)
		t := &procTree{exe: exe, root: cmd.Process.Pid, procs: map[int]*procState{}}
		pause := syscall.NsecToTimespec(int64(pollEvery))
		for n := 0; !done.Load(); n++ {
			t.find()
			t.sample(n%pssEvery == 0)
			_ = syscall.Nanosleep(&pause, nil)
		}
		sampled <- t
	}()
	err := cmd.Wait()
	done.Store(true)
	t := <-sampled
	// Not the kernel's ru_maxrss of the host: it is the largest of the
	// host and every child it waited for.
	return procRun{Peaks: t.peaks(), Pss: t.pssMax}, err
}

// procTree is the sampler's view of the processes under root.
type procTree struct {
	exe    string
	root   int
	procs  map[int]*procState
	pssMax int64
	buf    [16 << 10]byte
}

// procState is what is known of one descendant.
type procState struct {
	dir     string // /proc/PID/
	cmdline string
	nous    bool // runs exe and is not a fork of its parent still before exec
	settled bool // has exec'd: neither its binary nor its command line changes again
	gone    bool // has ended
	hwm     int64
}

// find walks the tree from the root for processes not seen yet.
func (t *procTree) find() {
	var walk func(pid int, parent string)
	walk = func(pid int, parent string) {
		p := t.procs[pid]
		if p == nil {
			p = &procState{dir: "/proc/" + strconv.Itoa(pid) + "/"}
			t.procs[pid] = p
		}
		if !p.settled {
			// A child between fork and exec still shows its parent's
			// binary and command line: it counts once they differ.
			cmdline := t.read(p.dir + "cmdline")
			if cmdline == nil {
				return
			}
			p.cmdline = string(cmdline)
			exe, _ := os.Readlink(p.dir + "exe")
			p.settled = pid == t.root || p.cmdline != parent
			p.nous = p.settled && exe == t.exe
		}
		if !p.nous || p.gone {
			return // git and the like: not ours, and they start no nous
		}
		for _, child := range t.children(p.dir) {
			walk(child, p.cmdline)
		}
	}
	walk(t.root, "")
}

// sample reads the VmHWM of every live nous process found, and the sum of
// their Pss when withPss.
func (t *procTree) sample(withPss bool) {
	var pss int64
	for _, p := range t.procs {
		if !p.nous || p.gone {
			continue
		}
		status := t.read(p.dir + "status")
		if status == nil {
			p.gone = true
			continue
		}
		p.hwm = max(p.hwm, kB(status, "VmHWM:"))
		if withPss {
			pss += kB(t.read(p.dir+"smaps_rollup"), "Pss:")
		}
	}
	t.pssMax = max(t.pssMax, pss)
}

// children lists the child pids of every thread of the process at dir.
func (t *procTree) children(dir string) []int {
	f, err := os.Open(dir + "task")
	if err != nil {
		return nil
	}
	tids, _ := f.Readdirnames(-1)
	f.Close()
	var out []int
	for _, tid := range tids {
		for field := range bytes.FieldsSeq(t.read(dir + "task/" + tid + "/children")) {
			if c, err := strconv.Atoi(string(field)); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// read reads a small /proc file into the tree's buffer; nil if it is gone.
// The runtime's preemption signals interrupt the calls now and then.
func (t *procTree) read(path string) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, t.buf[:])
	for err == syscall.EINTR {
		n, err = syscall.Read(fd, t.buf[:])
	}
	if err != nil || n <= 0 {
		return nil
	}
	return t.buf[:n]
}

// peaks returns the last VmHWM seen of every nous process.
func (t *procTree) peaks() map[int]procPeak {
	out := map[int]procPeak{}
	for pid, p := range t.procs {
		if p.nous && p.hwm > 0 {
			out[pid] = procPeak{Role: procRole(p.cmdline), HWM: p.hwm}
		}
	}
	return out
}

// kB reads the figure of a "Key:   N kB" line, 0 if absent.
func kB(b []byte, key string) int64 {
	_, rest, ok := bytes.Cut(b, []byte(key))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, _ := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte("kB")))), 10, 64)
	return n
}
