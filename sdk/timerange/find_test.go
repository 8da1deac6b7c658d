package timerange

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFind(t *testing.T) {
	tests := []struct {
		question string
		want     []string // the phrases, in order
	}{
		{"what changed in hclwrite since 2024-01-01?", []string{"since 2024-01-01"}},
		{"how many commits in Q1 2024", []string{"in Q1 2024"}},
		{"commits between 2024-01-01 and 2024-02-15", []string{"between 2024-01-01 and 2024-02-15"}},
		{"what did Radek commit in the past 2 weeks", []string{"in the past 2 weeks"}},
		{"what changed since the v1.17.0 release?", nil},
		{"issue PAY-101 from 2023", []string{"from 2023"}},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			got := Find(tt.question)
			var texts []string
			for _, m := range got {
				assert.Equal(t, tt.question[m.Start:m.End], m.Text, "Text is the span")
				texts = append(texts, m.Text)
				_, err := Parse(m.Text, time.Now())
				require.NoError(t, err, "Parse accepts what Find found")
			}
			assert.Equal(t, tt.want, texts)
		})
	}
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
