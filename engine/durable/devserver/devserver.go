// Package devserver starts a real Temporal dev server (the temporal CLI's
// `server start-dev`) for a test and stops it when the test ends.
package devserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
)

// CLIVersion is the temporal CLI release the tests run against; .ci/run
// installs the same one.
const CLIVersion = "v1.5.1"

// installHint says how to get the CLI; the skip and the failure both show it.
const installHint = "install it with `go install github.com/temporalio/cli/cmd/temporal@" + CLIVersion +
	"` (into $(go env GOPATH)/bin) or point NOUS_TEMPORAL_CLI at it"

const (
	// startTimeout bounds the wait for a healthy server; a cold start on a
	// busy two-core machine takes seconds, not minutes.
	startTimeout = 2 * time.Minute
	// stopGrace is how long SIGTERM gets before SIGKILL.
	stopGrace = 15 * time.Second
	// launchAttempts bounds restarts after losing a port race: the free
	// ports are found before the server binds them.
	launchAttempts = 3
)

// Server is a running dev server.
type Server struct {
	HostPort  string // the frontend's gRPC address, 127.0.0.1:PORT
	Namespace string // a namespace that exists on the server

	cmd     *exec.Cmd
	grace   time.Duration // between SIGTERM and SIGKILL
	log     string        // the file its stdout and stderr go to
	done    chan struct{} // closed once cmd has been waited for
	waitErr error         // cmd.Wait's result, set before done closes
}

// Start starts a dev server for t and stops it in t's cleanup. Without the
// temporal CLI it skips t, or fails it when NOUS_REQUIRE_TEMPORAL=1.
func Start(t testing.TB) *Server {
	t.Helper()
	cli, err := findCLI()
	if err != nil {
		missing(t, err)
		return nil
	}
	dir := t.TempDir()
	for attempt := 1; ; attempt++ {
		s, err := launch(cli, dir, attempt)
		if err != nil {
			t.Fatalf("devserver: %v", err)
			return nil
		}
		t.Cleanup(func() {
			// The log's tail as the test failed, before shutdown noise.
			if t.Failed() {
				t.Logf("devserver: the end of the temporal dev server's log %s:\n%s", s.log, tail(s.log, 40))
			}
			killed, err := s.stop()
			if err != nil {
				t.Errorf("devserver: %v", err)
			} else if killed {
				t.Logf("devserver: the temporal dev server ignored SIGTERM for %v and was killed", s.grace)
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		err = s.waitHealthy(ctx)
		cancel()
		if err == nil {
			return s
		}
		if s.exited() && attempt < launchAttempts && portTaken(s.log) {
			continue
		}
		t.Fatalf("devserver: %s server start-dev did not become healthy at %s: %v (its log: %s)", cli, s.HostPort, err, s.log)
		return nil
	}
}

// missing skips t, or fails it when the environment requires Temporal.
func missing(t testing.TB, err error) {
	t.Helper()
	msg := fmt.Sprintf("devserver: %v; %s", err, installHint)
	if os.Getenv("NOUS_REQUIRE_TEMPORAL") == "1" {
		t.Fatal(msg + " (NOUS_REQUIRE_TEMPORAL=1 forbids skipping)")
		return
	}
	t.Skip(msg)
}

// launch starts the server process on fresh loopback ports with its
// database and log in dir.
func launch(cli, dir string, attempt int) (*Server, error) {
	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, fmt.Sprintf("temporal-%d.log", attempt))
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer out.Close() // the child holds its own descriptor
	cmd := exec.Command(cli, "server", "start-dev",
		"--headless",
		"--ip", "127.0.0.1",
		"--port", strconv.Itoa(ports[0]),
		"--http-port", strconv.Itoa(ports[1]),
		"--metrics-port", strconv.Itoa(ports[2]),
		// A database file keeps the CLI from writing a cluster id under
		// $HOME. It is relative to cmd.Dir because the server opens it as
		// the URI file:PATH?…, where a '#' or '?' in a test's temporary
		// directory (subtest "x#01") would cut the path short.
		"--db-filename", fmt.Sprintf("temporal-%d.db", attempt),
	)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = serverEnv(os.Environ())
	s, err := startProcess(cmd, stopGrace)
	if err != nil {
		return nil, err
	}
	s.HostPort = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))
	s.Namespace = "default"
	s.log = logPath
	return s, nil
}

// startProcess starts cmd in its own process group and reaps it when it
// exits; stop gives it grace after SIGTERM.
func startProcess(cmd *exec.Cmd, grace time.Duration) (*Server, error) {
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	s := &Server{cmd: cmd, grace: grace, done: make(chan struct{})}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()
	return s, nil
}

// waitHealthy polls until a client can dial the server, its health check
// passes and the namespace is there, or the process exits, or ctx ends.
func (s *Server) waitHealthy(ctx context.Context) error {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		last := s.probe(ctx)
		if last == nil {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("it exited before becoming healthy: %v", s.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("not healthy after %v: %w", startTimeout, last)
		case <-tick.C:
		}
	}
}

// probe checks the server once.
func (s *Server) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	opts := client.Options{HostPort: s.HostPort, Namespace: s.Namespace, Logger: quietLogger()}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		return err
	}
	nc, err := client.NewNamespaceClient(opts)
	if err != nil {
		return err
	}
	defer nc.Close()
	if _, err := nc.Describe(ctx, s.Namespace); err != nil {
		return fmt.Errorf("namespace %q: %w", s.Namespace, err)
	}
	return nil
}

// exited reports whether the process has been waited for.
func (s *Server) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// stop ends the process: SIGTERM to its group, SIGKILL to the group after
// s.grace, and waits until it has been reaped. killed says SIGKILL was
// needed; err, that even SIGKILL did not end it.
func (s *Server) stop() (killed bool, err error) {
	if s.exited() {
		return false, nil
	}
	terminate(s.cmd.Process)
	select {
	case <-s.done:
		return false, nil
	case <-time.After(s.grace):
	}
	kill(s.cmd.Process)
	select {
	case <-s.done:
		return true, nil
	case <-time.After(stopGrace):
		return true, fmt.Errorf("the temporal dev server (pid %d) is still running %v after SIGKILL", s.cmd.Process.Pid, stopGrace)
	}
}

// findCLI finds the temporal CLI: NOUS_TEMPORAL_CLI (which must then be
// right), PATH, then go env's GOBIN and GOPATH/bin, where go install puts it.
func findCLI() (string, error) {
	if p := os.Getenv("NOUS_TEMPORAL_CLI"); p != "" {
		if err := executable(p); err != nil {
			return "", fmt.Errorf("NOUS_TEMPORAL_CLI=%s: %w", p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	dirs := goBinDirs()
	for _, d := range dirs {
		p := filepath.Join(d, exeName("temporal"))
		if executable(p) == nil {
			return p, nil
		}
	}
	where := "go env's GOBIN or GOPATH/bin (go did not answer)"
	if len(dirs) > 0 {
		where = strings.Join(dirs, ", ")
	}
	return "", fmt.Errorf("the temporal CLI is not in NOUS_TEMPORAL_CLI, PATH or %s", where)
}

// goBinDirs are the directories go install writes to: GOBIN, else each
// GOPATH entry's bin.
func goBinDirs() []string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "env", "GOBIN", "GOPATH")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local") // no toolchain download to answer this
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return nil
	}
	if lines[0] != "" {
		return []string{lines[0]}
	}
	var dirs []string
	for _, p := range filepath.SplitList(lines[1]) {
		if p != "" {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	return dirs
}

// executable reports why p cannot be run, or nil.
func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return errors.New("is a directory")
	}
	return isExec(fi)
}

// serverEnv is env without TEMPORAL_* variables, so a developer's CLI
// settings (address, profile, TLS) cannot reach the test's server.
func serverEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TEMPORAL_") {
			out = append(out, kv)
		}
	}
	return out
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		defer l.Close() // held until all n are chosen, so they differ
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// portTaken reports whether the log at path says a port was taken.
func portTaken(path string) bool {
	b, _ := os.ReadFile(path)
	return bytes.Contains(b, []byte("address already in use")) || bytes.Contains(b, []byte("can't set"))
}

// tail is the last n lines of the file at path (at most 16 KiB of it).
func tail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	const max = 16 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		_, _ = f.Seek(-max, io.SeekEnd)
	}
	b, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// quietLogger drops the SDK's logs while polling for health.
func quietLogger() tlog.Logger { return tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)) }
