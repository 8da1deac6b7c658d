package trace

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var fixed = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func fixedClock() time.Time { return fixed }

func TestAddAndUpdate(t *testing.T) {
	tr := New(fixedClock)
	id := tr.Add(Entry{Stage: Execution, Thought: "search", Action: "retrieve", Parameters: Params{{"q", "x"}}})
	assert.Equal(t, "e1", id)
	require.NoError(t, tr.Update(id, Update{
		Outcome: Success, Evidence: []string{"3 records"},
		Attachments: []map[string]any{{"type": "record", "id": "a"}},
		Parameters:  Params{{"limit", 5}},
	}))
	assert.Equal(t, "e2", tr.Add(Entry{Stage: Planning, Thought: "p"}))

	got := tr.Entries()
	require.Len(t, got, 2)
	assert.Equal(t, Success, got[0].Outcome)
	assert.Equal(t, []string{"3 records"}, got[0].Evidence)
	assert.Equal(t, Params{{"q", "x"}, {"limit", 5}}, got[0].Parameters)
	assert.Equal(t, fixed, got[0].Timestamp)
	assert.Equal(t, Pending, got[1].Outcome, "an entry without outcome is pending")
	assert.Equal(t, []map[string]any{{"type": "record", "id": "a"}}, tr.Attachments())
}

func TestUpdateUnknownEntry(t *testing.T) {
	tr := New(fixedClock)
	tr.Add(Entry{Thought: "x"})
	for _, id := range []string{"", "e0", "e2", "x1", "e-1", "eabc"} {
		assert.Error(t, tr.Update(id, Update{Outcome: Failed}), "id %q", id)
	}
}

func TestSummary(t *testing.T) {
	tr := New(fixedClock)
	tr.Add(Entry{Stage: Planning, Thought: "plan 3 steps", Outcome: Success})
	tr.Add(Entry{Stage: Execution, Thought: "retrieve commits", Action: "retrieve", Outcome: Failed, Error: "no records"})
	tr.Add(Entry{Stage: Correction, Thought: "too narrow", Corrections: []string{"drop dates", "retry"}, Outcome: Success})
	tr.Add(Entry{Stage: Execution, Thought: "retrieve again", Action: "retrieve", Evidence: []string{"4 records"}, Outcome: Success})

	assert.Equal(t, "Reasoning trace (2 of 4 entries):\n"+
		"- [correction] too narrow (success); corrections: drop dates | retry\n"+
		"- [execution] retrieve again -> retrieve (success); evidence: 4 records\n", tr.Summary(2, false))
	assert.Equal(t, "Reasoning trace (1 of 4 entries):\n"+
		"- [correction] too narrow (success); corrections: drop dates | retry\n", tr.Summary(10, true))
	assert.Contains(t, tr.Summary(0, false), "- [execution] retrieve commits -> retrieve (failed); error: no records\n")
	assert.Equal(t, "", New(fixedClock).Summary(10, false))
	assert.Equal(t, []string{"drop dates", "retry"}, tr.Corrections())
}

func TestPendingCommitments(t *testing.T) {
	tr := New(fixedClock)
	tr.Add(Entry{Stage: Planning, Thought: "plan", Commitments: []string{"step:h0", "step:h1", "report"}, Outcome: Success})
	id := tr.Add(Entry{Stage: Execution, Thought: "h0", Fulfills: []string{"step:h0"}})
	assert.Equal(t, []string{"step:h0", "step:h1", "report"}, tr.PendingCommitments(), "a pending entry fulfils nothing")
	require.NoError(t, tr.Update(id, Update{Outcome: Success}))
	tr.Add(Entry{Stage: Execution, Thought: "h1", Fulfills: []string{"step:h1"}, Outcome: Failed})
	assert.Equal(t, []string{"step:h1", "report"}, tr.PendingCommitments())
}

func TestConcurrentUse(t *testing.T) {
	tr := New(nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				id := tr.Add(Entry{Stage: Execution, Thought: strconv.Itoa(g*100 + i)})
				assert.NoError(t, tr.Update(id, Update{Outcome: Success}))
				_ = tr.Summary(5, false)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 400, tr.Len())
	seen := map[string]bool{}
	for _, e := range tr.Entries() {
		assert.False(t, seen[e.ID], "duplicate id %s", e.ID)
		seen[e.ID] = true
		assert.Equal(t, Success, e.Outcome)
	}
}

func BenchmarkAdd(b *testing.B) {
	tr := New(nil)
	params := Params{{"source", "git"}}
	b.ReportAllocs()
	for b.Loop() {
		tr.Add(Entry{Stage: Execution, Thought: "retrieve commits", Action: "retrieve", Parameters: params, Outcome: Success})
	}
}

func BenchmarkSummary50(b *testing.B) {
	tr := New(nil)
	for i := range 50 {
		tr.Add(Entry{Stage: Execution, Thought: "step " + strconv.Itoa(i), Action: "retrieve",
			Evidence: []string{"12 records"}, Corrections: []string{"broaden"}, Outcome: Success})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = tr.Summary(50, false)
	}
}

// BenchmarkRun64 is a run's trace: 64 entries added to a trace sized for
// them, then handed over.
func BenchmarkRun64(b *testing.B) {
	params := Params{{"source", "git"}}
	b.ReportAllocs()
	for b.Loop() {
		tr := New(nil)
		tr.Grow(64)
		for range 64 {
			tr.Add(Entry{Stage: Execution, Thought: "retrieve commits", Action: "retrieve", Parameters: params, Outcome: Success})
		}
		_ = tr.Close()
	}
}

func TestInteractionStampsEveryEntry(t *testing.T) {
	tr := New(fixedClock, Interaction("t1:2"))
	tr.Add(Entry{Stage: Planning, Thought: "plan"})
	tr.Add(Entry{Stage: Execution, Thought: "run"})
	for _, e := range tr.Entries() {
		assert.Equal(t, "t1:2", e.Interaction, e.ID)
	}
	assert.Empty(t, New(fixedClock).Entries(), "a fresh trace has no entries")
}

func TestDisabledKeepsOnlyTheLedger(t *testing.T) {
	tr := New(fixedClock, Disabled(), Interaction("i1"))
	assert.False(t, tr.Enabled())
	tr.Add(Entry{Stage: Planning, Thought: "plan", Commitments: []string{"step:h0", "step:h1"}, Outcome: Success})
	id := tr.Add(Entry{Stage: Execution, Thought: "h0", Fulfills: []string{"step:h0"}, Attachments: []map[string]any{{"id": "a"}}})
	require.NoError(t, tr.Update(id, Update{Outcome: Success, Evidence: []string{"3 records"}, Corrections: []string{"x"}}))
	tr.Add(Entry{Stage: Correction, Thought: "retry", Corrections: []string{"broaden"}, Outcome: Success})

	assert.Equal(t, []string{"step:h1"}, tr.PendingCommitments(), "commitments still count when no entry is recorded")
	assert.Zero(t, tr.Len())
	assert.Nil(t, tr.Entries())
	assert.Equal(t, "", tr.Summary(10, false))
	assert.Nil(t, tr.Corrections())
	assert.Nil(t, tr.Attachments())
	assert.Nil(t, tr.Close())
	assert.Error(t, tr.Update("e9", Update{Outcome: Failed}), "an unknown entry is still an error")
}

// BenchmarkRun64Disabled is BenchmarkRun64 with the trace off.
func BenchmarkRun64Disabled(b *testing.B) {
	params := Params{{"source", "git"}}
	b.ReportAllocs()
	for b.Loop() {
		tr := New(nil, Disabled())
		tr.Grow(64)
		for range 64 {
			tr.Add(Entry{Stage: Execution, Thought: "retrieve commits", Action: "retrieve", Parameters: params, Outcome: Success})
		}
		_ = tr.Close()
	}
}
