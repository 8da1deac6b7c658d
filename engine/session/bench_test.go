package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkAppend is what `nous ask --session` adds to a question: locking,
// reading a full session (20 turns of 4000-byte answers), appending,
// rewriting it atomically and pruning a directory of 100 sessions.
func BenchmarkAppend(b *testing.B) {
	dir := b.TempDir()
	s := NewStore(dir, Bounds{MaxTurns: 20, MaxAnswerBytes: 4000, MaxSessions: 100, MaxAge: time.Hour})
	t := turn("q")
	t.Answer = strings.Repeat("a", 4000)
	for i := range 100 {
		for range 20 {
			if err := s.Append(fmt.Sprint("s", i), t); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Append("s0", t); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFollowUpRequest is reading a follow-up against the default
// rules: planning the question alone, the follow_up condition, carrying
// the intents and moving the period.
func BenchmarkFollowUpRequest(b *testing.B) {
	p := defaultPlanner(b)
	sess := earlier()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if req, err := Request(ctx, p, sess, "and the week before?", ""); err != nil || req.FollowUp == nil {
			b.Fatal(err)
		}
	}
}

// FuzzRead feeds session files: any content is a session or an error.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"version": 1, "id": "t", "turns": [{"query": "q", "answer": "a", "since": "2026-11-16T00:00:00Z"}]}`))
	f.Add([]byte(`{"version": 1, "id": "t", "turns": null}`))
	f.Add([]byte(`{oops`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "t.json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		sess, err := NewStore(dir, Bounds{}).Load("t")
		if err == nil && sess.ID != "t" {
			t.Fatalf("loaded session %q for t", sess.ID)
		}
	})
}

// FuzzMovePeriod moves a fixed week by any question without panicking;
// a moved period is a closed range outside the week.
func FuzzMovePeriod(f *testing.F) {
	for _, q := range []string{"and the week before?", "the year after", "before that", "the quarter earlier", "nothing"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		c, ok := movePeriod(q, lastWeekSince, lastWeekUntil)
		if ok && c.Value == "" {
			t.Fatalf("%q: moved a closed week to nothing", q)
		}
		if ok && (strings.Contains(c.Value, "2026-11-16..") || !strings.Contains(c.Value, "..")) {
			t.Fatalf("%q: %q is not a closed period outside the week", q, c.Value)
		}
	})
}
