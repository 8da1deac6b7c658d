package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
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
    when       = "query matches '(?i)\\\\bonboarding\\\\b'"
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

// rulesCopy is the directory rules under parent, holding a copy of the
// default rules.
func rulesCopy(t *testing.T, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "rules")
	require.NoError(t, os.Mkdir(dir, 0o700))
	defaults := examples.DefaultRules()
	names, err := fs.Glob(defaults, "*.hcl")
	require.NoError(t, err)
	for _, name := range names {
		b, err := fs.ReadFile(defaults, name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o600))
	}
	return dir
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

func (s *served) rules(t *testing.T) rulesStatus {
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
func (s *served) waitReload(t *testing.T, since time.Time, ok bool) rulesStatus {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		st := s.rules(t)
		if r := st.LastReload; r != nil && r.At.After(since) && r.OK == ok {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.FailNow(t, "no reload with the expected outcome", "want ok=%v; logs:\n%s", ok, s.stderr)
	return rulesStatus{}
}

// metrics is GET /metrics.
func (s *served) metrics(t *testing.T) string {
	t.Helper()
	resp, err := http.Get(s.url + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// intents plans question and returns the intents the plan names; a failed
// request is an error.
func (s *served) intents(question string) ([]string, error) {
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
	withoutTokens(t)
	// The default rules read the repository their directory is in.
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z"})
	dir := rulesCopy(t, repo)
	s := startServe(t, "--rules", dir)
	before, err := s.intents(onboardingQuestion)
	require.NoError(t, err)
	require.NotContains(t, before, "query_onboarding")

	code, body := s.ask(t, "what changed in this repository last week?", "text")
	require.Equal(t, http.StatusOK, code, body)
	warm := children(t, s.cmd.Process.Pid, "plugin serve")
	require.NotEmpty(t, warm)

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

	flow.Go(func() {
		for !stop.Load() {
			if code, body, err := s.post("what changed in this repository last week?", "text"); err != nil || code != http.StatusOK {
				mu.Lock()
				failed = append(failed, fmt.Errorf("ask: %d %s %v", code, body, err))
				mu.Unlock()
			}
		}
	})

	file := filepath.Join(dir, "onboarding.hcl")
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
	assert.Eventually(t, func() bool { return strings.Contains(s.stderr.String(), "rules reload failed") },
		time.Minute, 20*time.Millisecond, "logged: %s", s.stderr) // through the stderr pipe

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
	metrics := s.metrics(t)
	assert.Contains(t, metrics, `nous_rules_reloads_total{outcome="error"} 1`+"\n")
	assert.Regexp(t, `nous_rules_reloads_total\{outcome="ok"\} ([3-9]|\d\d+)\n`, metrics)
	assert.Regexp(t, `nous_plugin_calls_total\{kind="source",name="gitlab"\} [1-9]`, metrics)
	assert.Contains(t, metrics, `nous_plugin_restarts_total{kind="source",name="gitlab"} 0`+"\n")
	running := children(t, s.cmd.Process.Pid, "plugin serve")
	for _, pid := range warm {
		assert.Contains(t, running, pid, "a plugin whose config did not change keeps its process across reloads")
	}

}

// TestServeWatchesRulesMadeAfterItStarted: started on the embedded
// defaults, nous serve loads a ./.nous made later on SIGHUP and from then
// on reloads when its files change.
func TestServeWatchesRulesMadeAfterItStarted(t *testing.T) {
	withoutTokens(t)
	cwd := t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), envNow+"="+askNow)
	s := listen(t, cmd)
	defaults := s.rules(t)

	require.NoError(t, os.Rename(rulesCopy(t, t.TempDir()), filepath.Join(cwd, ".nous")))
	since := time.Now()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGHUP))
	loaded := s.waitReload(t, since, true)
	assert.Equal(t, defaults.Digest, loaded.Digest, "a copy of the defaults is the same rules")

	since = time.Now()
	require.NoError(t, os.WriteFile(filepath.Join(cwd, ".nous", "onboarding.hcl"), []byte(onboardingRules), 0o600))
	added := s.waitReload(t, since, true)
	assert.NotEqual(t, loaded.Digest, added.Digest)
	got, err := s.intents(onboardingQuestion)
	require.NoError(t, err)
	assert.Contains(t, got, "query_onboarding", "the new file is watched")
}

// TestServeSaysWhatThePluginsFindWrong: rules whose git sources are no
// repository (copied away from it) serve, ready, but what the plugins
// found is printed at start, shown at GET /v1/rules and logged on reload.
func TestServeSaysWhatThePluginsFindWrong(t *testing.T) {
	withoutTokens(t)
	dir := rulesCopy(t, t.TempDir())
	s := startServe(t, "--rules", dir)
	const notRepo = "not a git repository"
	start := s.stderr.String()
	assert.Regexp(t, `(?s)Warning: source "gitlab": config.path: git: `+notRepo+`.*nous: serving on`, start,
		"printed as a warning before the server listens")

	resp, err := http.Get(s.url + "/readyz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the other sources still answer")

	var st struct {
		Sources []struct {
			Name, Plugin string
			Diagnostics  []struct{ Severity, Summary, Range string }
		}
	}
	get := func() {
		resp, err := http.Get(s.url + "/v1/rules")
		require.NoError(t, err)
		defer resp.Body.Close()
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	}
	get()
	var gitlab bool
	for _, src := range st.Sources {
		if src.Name != "gitlab" {
			continue
		}
		gitlab = true
		assert.Equal(t, "builtin:git", src.Plugin)
		require.NotEmpty(t, src.Diagnostics)
		assert.Equal(t, "error", src.Diagnostics[0].Severity)
		assert.Contains(t, src.Diagnostics[0].Summary, notRepo)
		assert.Contains(t, src.Diagnostics[0].Range, "sources.hcl:")
	}
	assert.True(t, gitlab, "the gitlab source is listed: %+v", st.Sources)

	since := time.Now()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "onboarding.hcl"), []byte(onboardingRules), 0o600))
	s.waitReload(t, since, true)
	// The reload is visible before its log line has come through the
	// process's stderr pipe: wait for the line.
	logged := `plugin config: source \"gitlab\": config.path: git: ` + notRepo
	assert.Eventually(t, func() bool { return strings.Contains(strings.TrimPrefix(s.stderr.String(), start), logged) },
		time.Minute, 20*time.Millisecond, "logged on reload:\n%s", s.stderr)
}
