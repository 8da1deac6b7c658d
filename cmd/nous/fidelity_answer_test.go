package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine/runner"
)

// fidelityTimeout bounds one question's run of `nous ask`.
const fidelityTimeout = 45 * time.Second

// fidelityAnswer is what the suite reads of `nous ask --format json`: the
// run's status, its report and the records it kept.
type fidelityAnswer struct {
	exit   int
	stderr string
	Result struct {
		Status  string   `json:"status"`
		Report  string   `json:"report"`
		Error   string   `json:"error"`
		Caveats []string `json:"caveats"`
		Records []struct {
			ID     string         `json:"id"`
			Source string         `json:"source"`
			Kind   string         `json:"kind"`
			Title  string         `json:"title"`
			Fields map[string]any `json:"fields"`
		} `json:"records"`
	} `json:"result"`
}

// fidelityEnv is the environment of a run: the caller's, without anything
// that would configure GitLab, YouTrack, an LLM or the clock, plus the
// suite's clock. So the embedded default rules pick the local git source
// and the offline template agents, as for a new user with no setup.
func fidelityEnv() []string {
	drop := []string{"GITLAB_TOKEN", "GITLAB_URL", "YOUTRACK_TOKEN", "YOUTRACK_URL", "NOUS_OPENAI_BASE_URL",
		"OPENAI_API_KEY", "NOUS_OPENAI_MODEL", "NOUS_LOG_LEVEL", envNow, envAsNous}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(drop, k) {
			env = append(env, kv)
		}
	}
	return append(env, envAsNous+"=1", envNow+"="+fidelityNow)
}

// askIn runs `nous ask --format json QUESTION` as a user would, in dir
// with the embedded default rules: this test binary re-executed as nous
// (see TestMain), serving the built-in plugins as subprocesses.
func askIn(ctx context.Context, dir, question string) (*fidelityAnswer, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the test binary: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, fidelityTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "ask", "--format", "json", question)
	cmd.Dir, cmd.Env = dir, fidelityEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	ans := &fidelityAnswer{stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		ans.exit = ee.ExitCode()
	case err != nil:
		return nil, fmt.Errorf("running nous ask: %w (stderr: %s)", err, errb.String())
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("nous ask did not finish within %s (stderr: %s)", fidelityTimeout, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), ans); err != nil {
		return ans, fmt.Errorf("stdout is not the JSON document (exit %d): %w; stderr: %s", ans.exit, err, errb.String())
	}
	return ans, nil
}

// commitIDs are the full SHAs of the answer's commit records, resolved
// against the repository's commits: Fields["sha"] when the record has it,
// else its ID as a prefix. An ID that resolves to no commit, or to more
// than one, is kept as it is (and so counts as an extra). Records marked
// as found outside the asked period (exec.FieldOutside: the nearest
// activity around an empty period) are returned apart.
func (a *fidelityAnswer) commitIDs(all []logCommit) (answer, outside []string) {
	for _, r := range a.Result.Records {
		if r.Kind != "commit" {
			continue
		}
		id := r.ID
		if sha, ok := r.Fields["sha"].(string); ok && sha != "" {
			id = sha
		}
		if o, _ := r.Fields[runner.FieldOutside].(string); o != "" {
			outside = append(outside, resolveSHA(id, all))
			continue
		}
		answer = append(answer, resolveSHA(id, all))
	}
	return answer, outside
}

func resolveSHA(id string, all []logCommit) string {
	match := ""
	for _, c := range all {
		if len(id) >= 7 && strings.HasPrefix(c.sha, strings.ToLower(id)) {
			if match != "" {
				return id
			}
			match = c.sha
		}
	}
	if match == "" {
		return id
	}
	return match
}

// statedCounts are the numbers the report states as "N commit(s)".
func statedCounts(report string) []int {
	var n []int
	for _, m := range countPattern.FindAllStringSubmatch(report, -1) {
		var v int
		if _, err := fmt.Sscan(m[1], &v); err == nil {
			n = append(n, v)
		}
	}
	return n
}

var countPattern = regexp.MustCompile(`(?i)\b(\d+)\s+commits?\b`)

// exampleIssue is an issue key of the bundled example data, which must
// never appear in an answer about the user's repository.
var exampleIssue = regexp.MustCompile(`\b(PAY|SHOP|OPS)-\d+\b`)
