package template

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The regular expressions hasSourcesHeading and hasDate stand for.
var (
	sourcesHeading = regexp.MustCompile(`(?im)^#{1,6}\s*(sources|references|來源|資料來源|參考資料)`)
	dated          = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
)

// FuzzHeadingAndDate holds hasSourcesHeading and hasDate to the regular
// expressions they stand for.
func FuzzHeadingAndDate(f *testing.F) {
	for _, s := range []string{"", "## Sources\n1. x", "text\n### references", "#######Sources", "# \n\n  SOURCES", "x ## Sources",
		"#\t資料來源", "## Source", "##ſources", "on 2026-11-20.", "a2026-11-20", "2026-11-20b", "2026-1-20", "12026-11-20", "2026-11-201",
		"-2026-11-20-", "2026--11-20", "x\r## Sources", "\n#Références"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, sourcesHeading.MatchString(s), hasSourcesHeading(s), "heading")
		assert.Equal(t, dated.MatchString(s), hasDate(s), "date")
	})
}
