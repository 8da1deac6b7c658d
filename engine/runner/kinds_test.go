package runner

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// FuzzNamedKinds holds namedKinds, which skips the regular expressions of
// the kinds an ASCII text holds no stem of, to running them all.
func FuzzNamedKinds(f *testing.F) {
	for _, s := range []string{"", "how many open issues are there?", "Which PRs and MRs were merged?", "commits and releases",
		"pull-requests in CI runs", "Workflow Runs", "a project in April", "BUGS", "release\u212a", "relea\u017fe", "ISSUE TICKETS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var want []string
		for _, w := range kindWords() {
			if w.re.MatchString(text) {
				want = append(want, w.kind)
			}
		}
		assert.Equal(t, want, namedKinds(text))
	})
}
