package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sessionRepo is a repository with commits last week and the week before
// (askNow is Tuesday 2026-11-10), sessions kept in a temporary state
// directory; it returns the rules and that directory.
func sessionRepo(t *testing.T, extra string) (rules, state string) {
	t.Helper()
	state = filepath.Join(t.TempDir(), "state")
	t.Setenv(session.EnvDir, state)
	return askRules(t, twoWeeksRepo(t), askIssues(t, askDefaultIssues...), extra), state
}

// twoWeeksRepo is a repository with two commits last week and one the week
// before.
func twoWeeksRepo(t *testing.T) string {
	t.Helper()
	withoutTokens(t)
	return askRepo(t, map[string]string{
		"Fix refund rounding": "2026-11-03T10:00:00Z", // last week
		"Add gateway retry":   "2026-11-05T15:00:00Z", // last week
		"Rewrite the lexer":   "2026-10-28T10:00:00Z", // the week before
		"Ancient change":      "2026-09-01T10:00:00Z",
	})
}

func TestAskSessionFollowUpEndToEnd(t *testing.T) {
	rules, state := sessionRepo(t, "")

	out, stderr, code := runAsk(t, "--rules", rules, "--session", "t1", "--format", "json", "what changed last week?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, "t1", doc.Result.Session)
	assert.Equal(t, doc.Result.ExecutionID, doc.Result.InteractionID, "one question, one run")
	for _, e := range doc.Trace {
		assert.Equal(t, doc.Result.InteractionID, e.Interaction, e.ID)
	}
	require.NotEmpty(t, doc.Plan.Retrieval.Queries)
	q := doc.Plan.Retrieval.Queries[0]
	require.NotNil(t, q.Results, "a query's results are filled after execution")
	assert.Equal(t, engine.QueryResult{Status: engine.QuerySucceeded, Records: 2}, *q.Results)
	assert.Equal(t, doc.Plan.Retrieval.Queries, doc.History.FinalResult.Queries)
	assert.Nil(t, doc.Plan.Interpretation.FollowUp, "the first question continues nothing")

	out, stderr, code = runAsk(t, "--rules", rules, "--session", "t1", "and the week before?")
	require.Equal(t, 0, code, stderr)
	understood, _, _ := strings.Cut(out, "\n## ")
	assert.Contains(t, understood, "- Follow-up of “what changed last week?” (session t1, turn 1): took intent query_commits; "+
		"dates 2026-10-26..2026-11-01 (the week before, from 2026-11-02 – 2026-11-08)")
	assert.Contains(t, understood, "2026-10-26 – 2026-11-01: 1 commit")
	assert.Contains(t, out, "Rewrite the lexer", "the week before's commit, as git log --since=2026-10-26 --until=2026-11-02 has it")
	assert.NotContains(t, out, "Fix refund rounding", "not last week's")

	sess, err := session.NewStore(state, session.Bounds{}).Load("t1")
	require.NoError(t, err)
	require.Len(t, sess.Turns, 2)
	assert.Equal(t, "and the week before?", sess.Turns[1].Query)
	assert.Equal(t, []string{"2026-10-26..2026-11-01"}, sess.Turns[1].Entities["dates"])
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(filepath.Join(state, "t1.json"))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	}

	out, stderr, code = runAsk(t, "--rules", rules, "--session", "t1", "only in the README")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "took intent query_commits; dates 2026-10-26..2026-11-01", "a follow-up of the follow-up keeps its period")
}

func TestAskSessionErrors(t *testing.T) {
	rules, state := sessionRepo(t, "")
	_, stderr, code := runAsk(t, "--rules", rules, "--session", "../etc", "what changed last week?")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `--session: session ID "../etc": want 1 to 64 letters`)

	require.NoError(t, os.MkdirAll(state, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(state, "bad.json"), []byte("{oops"), 0o600))
	_, stderr, code = runAsk(t, "--rules", rules, "--session", "bad", "what changed last week?")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "bad.json is not a session file")
	assert.Contains(t, stderr, "nous sessions rm bad")
}

func TestAskTraceOffEndToEnd(t *testing.T) {
	repo, issues := twoWeeksRepo(t), askIssues(t, askDefaultIssues...)
	on, off := askRules(t, repo, issues, ""), askRules(t, repo, issues, "reasoning_trace {\n  enabled = false\n}\n")
	docs := map[string]map[string]json.RawMessage{}
	for name, rules := range map[string]string{"on": on, "off": off} {
		out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "what changed last week?")
		require.Equal(t, 0, code, stderr)
		var doc map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		docs[name] = doc
	}
	assert.Contains(t, docs["on"], "trace")
	assert.NotContains(t, docs["off"], "trace", "no trace when the rules turn it off")
	var onRes, offRes struct{ Status, Report string }
	require.NoError(t, json.Unmarshal(docs["on"]["result"], &onRes))
	require.NoError(t, json.Unmarshal(docs["off"]["result"], &offRes))
	assert.Equal(t, onRes, offRes, "everything else is the same")

	out, _, code := runAsk(t, "--rules", off, "--trace", "what changed last week?")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "(not recorded: reasoning_trace.enabled is false in the rules)")
}

func TestSessionsCommand(t *testing.T) {
	rules, state := sessionRepo(t, "")
	nous := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), code
	}
	out, _, code := nous("sessions")
	require.Equal(t, 0, code)
	assert.Equal(t, "no sessions in "+state+"\n", out)

	_, stderr, code := runAsk(t, "--rules", rules, "--session", "t1", "what changed last week?")
	require.Equal(t, 0, code, stderr)
	out, _, code = nous("sessions", "list")
	require.Equal(t, 0, code)
	assert.Regexp(t, `(?m)^t1\s+1\s+2026-11-10T12:00:00Z\s+what changed last week\?$`, out)

	out, _, code = nous("sessions", "show", "t1")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "── turn 1, 2026-11-10T12:00:00Z, success")
	assert.Contains(t, out, "Q: what changed last week?")
	assert.Contains(t, out, "Fix refund rounding")

	_, stderr, code = nous("sessions", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "want list, show ID or rm ID...")

	require.NoError(t, os.WriteFile(filepath.Join(state, "bad.json"), []byte("{oops"), 0o600))
	out, stderr, code = nous("sessions")
	assert.Equal(t, 0, code, "a foreign file does not hide the sessions")
	assert.Regexp(t, `(?m)^t1\s+1\s`, out)
	assert.NotContains(t, out, "bad")
	assert.Contains(t, stderr, `nous: sessions: skipped session "bad": `+filepath.Join(state, "bad.json")+" is not a session file")

	for _, args := range [][]string{{"show", "../x"}, {"rm", "t1", "../x"}} {
		_, stderr, code = nous(append([]string{"sessions"}, args...)...)
		assert.Equal(t, 2, code, "%v is a usage error, as ask --session ../x", args)
		assert.Contains(t, stderr, `session ID "../x": want 1 to 64 letters`)
	}

	_, _, code = nous("sessions", "rm", "t1")
	require.Equal(t, 0, code)
	_, stderr, code = nous("sessions", "show", "t1")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `session "t1": no such session`)
}

func TestSessionsWithoutHome(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the state directory's variables are Linux's")
	}
	for _, name := range []string{session.EnvDir, "XDG_STATE_HOME", "HOME"} {
		t.Setenv(name, "")
	}
	var out, errb bytes.Buffer
	code := run([]string{"sessions"}, strings.NewReader(""), &out, &errb)
	assert.Equal(t, 2, code)
	assert.Contains(t, errb.String(), "sessions: $HOME is not set; set "+session.EnvDir)
	assert.NotContains(t, errb.String(), "sessions: sessions:", "the prefix once")
}

func TestAskExpiredSessionStartsAgainAndSaysSo(t *testing.T) {
	rules, state := sessionRepo(t, "")
	_, stderr, code := runAsk(t, "--rules", rules, "--session", "old", "what changed last week?")
	require.Equal(t, 0, code, stderr)
	long := time.Now().Add(-31 * 24 * time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(state, "old.json"), long, long))

	out, stderr, code := runAsk(t, "--rules", rules, "--session", "old", "and the week before?")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "session old was not used for more than 720h0m0s (session.max_age): it starts again")
	assert.NotContains(t, out, "Follow-up of", "nothing is carried from a session that expired")
}

func TestAskTwoAtOnceOnOneSessionKeepBothTurns(t *testing.T) {
	rules, state := sessionRepo(t, "")
	t.Setenv(envNow, askNow)
	questions := []string{"what changed last week?", "how many commits were made last week?"}
	var wg sync.WaitGroup
	for _, q := range questions {
		wg.Go(func() {
			var out, errb bytes.Buffer
			code := run([]string{"ask", "--rules", rules, "--session", "both", q}, strings.NewReader(""), &out, &errb)
			assert.Equal(t, 0, code, errb.String())
		})
	}
	wg.Wait()
	sess, err := session.NewStore(state, session.Bounds{}).Read("both")
	require.NoError(t, err)
	var asked []string
	for _, turn := range sess.Turns {
		asked = append(asked, turn.Query)
	}
	assert.ElementsMatch(t, questions, asked, "neither append lost the other's turn")
}
