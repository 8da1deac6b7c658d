package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nous-dev/nous/examples"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onboardingRules add an intent the default rules lack.
const onboardingRules = `intent "query_onboarding" {
  pattern = "chain"

  detect {
    when       = "query matches '(?i)\\bonboarding\\b'"
    confidence = 0.95
  }

  hypothesis "retrieve" {
    description = "Retrieve onboarding documents"
    action      = "retrieve"
  }
}
`

// onboardingQuestion is what the onboarding intent detects.
const onboardingQuestion = "where is the onboarding guide for new developers?"

// reloadServer is a `nous serve` process serving a copy of the default
// rules from a directory.
type reloadServer struct {
	url   string
	dir   string // the rules directory
	cmd   *exec.Cmd
	logs  *syncBuffer
	ended chan error
}

// syncBuffer is a buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startReloadServer runs this test binary as `nous serve --rules DIR` on a
// free loopback port, DIR holding a copy of the default rules.
func startReloadServer(t *testing.T) *reloadServer {
	t.Helper()
	dir := t.TempDir()
	defaults := examples.DefaultRules()
	names, err := fs.Glob(defaults, "*.hcl")
	require.NoError(t, err)
	for _, name := range names {
		b, err := fs.ReadFile(defaults, name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o600))
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "serve", "--addr", "127.0.0.1:0", "--rules", dir)
	cmd.Dir = t.TempDir()
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &reloadServer{dir: dir, cmd: cmd, logs: &syncBuffer{}, ended: make(chan error, 1)}
	lines := bufio.NewReader(stderr)
	for s.url == "" {
		line, err := lines.ReadString('\n')
		_, _ = s.logs.Write([]byte(line))
		require.NoError(t, err, "nous serve ended before serving: %s", s.logs)
		if _, rest, ok := strings.Cut(line, "serving on "); ok {
			s.url, _, _ = strings.Cut(rest, " ")
		}
	}
	go func() {
		_, _ = io.Copy(s.logs, lines)
		s.ended <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	return s
}

// rulesStatus is GET /v1/rules.
type rulesStatus struct {
	Digest     string `json:"digest"`
	LastReload *struct {
		At          time.Time `json:"at"`
		OK          bool      `json:"ok"`
		Diagnostics []struct {
			Range, Severity, Summary string
		} `json:"diagnostics"`
	} `json:"last_reload"`
}

func (s *reloadServer) rules(t *testing.T) rulesStatus {
	t.Helper()
	resp, err := http.Get(s.url + "/v1/rules")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var st rulesStatus
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	return st
}

// waitReload polls GET /v1/rules until a reload after since has the
// outcome ok, and returns what it shows.
func (s *reloadServer) waitReload(t *testing.T, since time.Time, ok bool) rulesStatus {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		st := s.rules(t)
		if r := st.LastReload; r != nil && r.At.After(since) && r.OK == ok {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.FailNow(t, "no reload with the expected outcome", "want ok=%v; logs:\n%s", ok, s.logs)
	return rulesStatus{}
}

// intents plans question and returns the intents the plan names; a failed
// request is an error.
func (s *reloadServer) intents(question string) ([]string, error) {
	body, _ := json.Marshal(map[string]string{"query": question})
	resp, err := http.Post(s.url+"/v1/plan", "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return nil, &planError{resp.StatusCode, string(b)}
	}
	var plan struct {
		Reasoning struct {
			Intents []struct{ Type string } `json:"intents"`
		} `json:"reasoning"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&plan); err != nil {
		return nil, err
	}
	var names []string
	for _, in := range plan.Reasoning.Intents {
		names = append(names, in.Type)
	}
	return names, nil
}

type planError struct {
	status int
	body   string
}

func (e *planError) Error() string { return http.StatusText(e.status) + ": " + e.body }

// TestServeReloadsRulesWhileRequestsFlow edits the rules of a running
// `nous serve` while plans are requested without pause: a new intent
// becomes visible, a broken edit keeps the last good rules and is reported
// at GET /v1/rules, fixing it swaps again, SIGHUP reloads too, and no
// request fails throughout.
func TestServeReloadsRulesWhileRequestsFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nous serve")
	}
	s := startReloadServer(t)
	before, err := s.intents(onboardingQuestion)
	require.NoError(t, err)
	require.NotContains(t, before, "query_onboarding")

	var (
		stop    atomic.Bool
		flow    sync.WaitGroup
		planned atomic.Int64
		mu      sync.Mutex
		failed  []error
	)
	for range 4 {
		flow.Go(func() {
			for !stop.Load() {
				if _, err := s.intents(onboardingQuestion); err != nil {
					mu.Lock()
					failed = append(failed, err)
					mu.Unlock()
				}
				planned.Add(1)
			}
		})
	}

	file := filepath.Join(s.dir, "onboarding.hcl")
	first := s.rules(t)
	since := time.Now()
	require.NoError(t, os.WriteFile(file, []byte(onboardingRules), 0o600))
	added := s.waitReload(t, since, true)
	assert.NotEqual(t, first.Digest, added.Digest)
	got, err := s.intents(onboardingQuestion)
	require.NoError(t, err)
	assert.Contains(t, got, "query_onboarding", "the new intent is visible")

	since = time.Now()
	require.NoError(t, os.WriteFile(file, []byte(`intent "query_onboarding" {`), 0o600))
	broken := s.waitReload(t, since, false)
	assert.Equal(t, added.Digest, broken.Digest, "the last good rules keep serving")
	require.NotEmpty(t, broken.LastReload.Diagnostics)
	d := broken.LastReload.Diagnostics[0]
	assert.Equal(t, "error", d.Severity)
	assert.Contains(t, d.Range, "onboarding.hcl:1:")
	got, err = s.intents(onboardingQuestion)
	require.NoError(t, err)
	assert.Contains(t, got, "query_onboarding", "planned with the last good rules")
	assert.Contains(t, s.logs.String(), "rules reload failed")

	since = time.Now()
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(onboardingRules, "0.95", "0.96", 1)), 0o600))
	fixed := s.waitReload(t, since, true)
	assert.NotEqual(t, added.Digest, fixed.Digest, "the fix swaps again")

	since = time.Now()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	hup := s.waitReload(t, since, true)
	assert.Equal(t, fixed.Digest, hup.Digest, "SIGHUP reloads the same rules")

	stop.Store(true)
	flow.Wait()
	assert.Empty(t, failed, "no request fails during reloads")
	assert.Positive(t, planned.Load())

	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-s.ended:
		assert.NoError(t, err, "logs:\n%s", s.logs)
	case <-time.After(time.Minute):
		require.FailNow(t, "nous serve did not stop on SIGTERM")
	}
	assert.False(t, slices.Contains(strings.Fields(s.logs.String()), "panic:"))
}
