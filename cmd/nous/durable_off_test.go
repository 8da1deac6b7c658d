//go:build !temporal

package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithoutTheTemporalTagDurableRunsSayHowToGetThem(t *testing.T) {
	for _, args := range [][]string{
		{"worker", "--temporal", "127.0.0.1:7233"},
		{"replay", "run.json"},
		{"ask", "--temporal", "127.0.0.1:7233", "what changed last week?"},
		{"serve", "--temporal", "127.0.0.1:7233", "--addr", "127.0.0.1:0"},
	} {
		t.Run(args[0], func(t *testing.T) {
			var out, errb strings.Builder
			code := run(args, strings.NewReader(""), &out, &errb)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, errb.String(), "built without Temporal support")
			assert.Contains(t, errb.String(), "go install -tags temporal github.com/nous-dev/nous/cmd/nous@latest")
		})
	}
}
