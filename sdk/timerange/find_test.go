package timerange

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFind(t *testing.T) {
	tests := []struct {
		question string
		want     []string // the phrases, in order; each occurs once in the question
	}{
		{"what changed in hclwrite since 2024-01-01?", []string{"since 2024-01-01"}},
		{"how many commits in Q1 2024", []string{"in Q1 2024"}},
		{"commits between 2024-01-01 and 2024-02-15", []string{"between 2024-01-01 and 2024-02-15"}},
		{"what did Radek commit in the past 2 weeks", []string{"in the past 2 weeks"}},
		{"what changed since the v1.17.0 release?", nil},
		{"what changed since v1.17.0", nil},
		{"bugs fixed since 1.2", nil},
		{"issue PAY-101 from 2023", []string{"from 2023"}},
		{"what changed last week?", []string{"last week"}},
		{"how many commits were made in the first half of 2025?", []string{"in the first half of 2025"}},
		{"commits since 2024-01-01 until 2024-03-31", []string{"since 2024-01-01", "until 2024-03-31"}},
		{"who worked on plumbing/format/packfile in 2024?", []string{"in 2024"}},
		{"what happened in January 2024 and in March 2024", []string{"in January 2024", "in March 2024"}},
		{"show the 10 most recent commits", nil},
		{"top 2000 commits by size", nil},
		{"which commits touched 3 files", nil},
		{"commits from Jan about the parser", nil},
		{"what about 2024?", []string{"about 2024"}},
		{"and what about March 2025?", []string{"about March 2025"}},
		{"what about May?", nil},
		{"commits about 2024 in hclwrite", []string{"about 2024"}},
		{"what did May merge in May 2024?", []string{"in May 2024"}},
		{"may I see what changed yesterday", []string{"yesterday"}},
		{"commits over the last 30 days in hclsyntax/", []string{"over the last 30 days"}},
		{"activity this month vs last month", []string{"this month", "last month"}},
		{"what was released 2024-01-01..2024-01-31", []string{"2024-01-01..2024-01-31"}},
		{"changes during Q4 of last year", []string{"during Q4 of last year"}},
		{"commits before 2023-06-01 touching README.md", []string{"before 2023-06-01"}},
		{"what changed after March 5, 2024?", []string{"after March 5, 2024"}},
		{"since Monday, what broke?", []string{"since Monday"}},
		{"what broke on Monday", []string{"on Monday"}},
		{"the second half of the function is slow", nil},
		{"what changed since the start of the year", []string{"since the start of the year"}},
		{"open issues in SHOP project in the last 3 months", []string{"in the last 3 months"}},
		{"version 2.0.1 was released 3 weeks ago", []string{"3 weeks ago"}},
		{"what changed in 2024-05?", []string{"in 2024-05"}},
		{"commits from 2024-01-01 to 2024-01-15 by alice", []string{"from 2024-01-01 to 2024-01-15"}},
		{"count commits per day in the past week", []string{"in the past week"}},
		{"in Q1 the team shipped v2", []string{"in Q1"}},
		{"what changed since last Friday", []string{"since last Friday"}},
		{"commits in the past 0 days", nil},
		{"compare 2023 with 2024", nil},
		{"hclwrite changes in H1 2025 vs H2 2024", []string{"in H1 2025", "H2 2024"}},
		{"what changed between v1.0 and v1.1", nil},
		{"(Q1 2024) release notes", []string{"Q1 2024"}},
		{"What Changed LAST QUARTER in expr?", []string{"LAST QUARTER"}},
		{"tasks for June and commits by Dec", nil},
		{"what changed this year's first week", []string{"this year"}},
		{"commits on 2024-02-30", nil},
		{"", nil},
		{"since the start of the end of 2024", []string{"the end of 2024"}},
		{"what shipped by the end of March?", []string{"the end of March"}},
		{"what is the largest commit of 2025?", []string{"of 2025"}},
		{"the busiest week of March 2025", []string{"of March 2025"}},
		{"the first half of 2025", []string{"the first half of 2025"}},
		{"the 5th of May", nil},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			var want []Match
			for _, w := range tt.want {
				start := strings.Index(tt.question, w)
				require.GreaterOrEqual(t, start, 0, "the table's phrase %q is in its question", w)
				want = append(want, Match{Start: start, End: start + len(w), Text: w})
			}
			got := Find(tt.question)
			assert.Equal(t, want, got)
			for _, m := range got {
				_, err := Parse(m.Text, time.Now())
				assert.NoError(t, err, "Parse accepts what Find found")
			}
		})
	}
	require.GreaterOrEqual(t, len(tests), 30)
}

// TestFindLinear: a long adversarial text is read in one pass, each word
// looked at a bounded number of times.
func TestFindLinear(t *testing.T) {
	text := strings.Repeat("the start of ", 20000) + "2024 " + strings.Repeat("between 2024 and ", 20000)
	got := Find(text)
	require.NotEmpty(t, got)
	for _, m := range got {
		_, err := Parse(m.Text, time.Now())
		require.NoError(t, err)
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{"what changed in hclwrite since 2024-01-01?", "how many commits in Q1 2024",
		"commits between 2024-01-01 and 2024-02-15", "since the v1.17.0 release", "in the first half of 2025",
		"2024-01-01..2024-01-31.", "the end of Q1 2024", "from 2023 to 2024", "last 99999999999999999999 days",
		"in March 5th, 2023", "..2024..", "Q1-2024 q5 h2-2024", "é 2024 – since lundi"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for _, m := range Find(text) {
			require.LessOrEqual(t, prev, m.Start, "in text order, without overlaps")
			require.Less(t, m.Start, m.End)
			require.Equal(t, text[m.Start:m.End], m.Text)
			_, err := Parse(m.Text, time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC))
			require.NoError(t, err, "Parse accepts %q found in %q", m.Text, text)
			prev = m.End
		}
	})
}

// BenchmarkFind scans a question of about 60 characters with one phrase.
func BenchmarkFind(b *testing.B) {
	q := "how many commits touched hclwrite/ in Q1 2024 by Radek Simko?"
	b.ReportAllocs()
	for b.Loop() {
		if len(Find(q)) != 1 {
			b.Fatal("no match")
		}
	}
}

// BenchmarkFindNone scans a question of about 60 characters with no phrase.
func BenchmarkFindNone(b *testing.B) {
	q := "which commits touched hclsyntax/ since the v1.17.0 release?"
	b.ReportAllocs()
	for b.Loop() {
		if len(Find(q)) != 0 {
			b.Fatal("a match")
		}
	}
}
