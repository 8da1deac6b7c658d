package template

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// maxChurn is how many files, directories or commits a line-statistics
// section ranks.
const maxChurn = 10

// churnAsk is what a question asks of line statistics: the files or
// directories changed most, lines added or removed, the largest commits.
type churnAsk struct{ files, dirs, lines, largest bool }

var (
	churnDirs    = regexp.MustCompile(`(?i)\b(?:director(?:y|ies)|dirs?|folders?|packages?|modules?)\b`)
	churnFiles   = regexp.MustCompile(`(?i)\b(?:files?|paths?|hot ?spots?|churn)\b`)
	churnMost    = regexp.MustCompile(`(?i)\b(?:most|hot ?spots?|churn|top)\b`)
	churnLines   = regexp.MustCompile(`(?i)\b(?:lines?|churn)\b`)
	churnLargest = regexp.MustCompile(`(?i)\b(?:largest|biggest)\s+(?:commits?|changes?)\b`)
)

// askOf reads what query asks of line statistics; the zero value when it
// asks none of it.
func askOf(query string) churnAsk {
	var a churnAsk
	most := churnMost.MatchString(query)
	a.dirs = most && churnDirs.MatchString(query)
	a.files = most && !a.dirs && churnFiles.MatchString(query)
	a.lines = churnLines.MatchString(query)
	a.largest = churnLargest.MatchString(query)
	return a
}

func (a churnAsk) any() bool { return a.files || a.dirs || a.lines || a.largest }

// lineStats is the line statistics of every record: the engine's count of
// the whole set when it sent only some, else the records' own.
func (ev evidence) lineStats() *sdk.LineStats {
	if ev.whole != nil && ev.whole.Lines != nil {
		return ev.whole.Lines
	}
	var s sdk.LineStats
	for _, r := range ev.records {
		s.Add(r)
	}
	if s.Commits == 0 && s.Without == 0 {
		return nil
	}
	return &s
}

// writeChurn writes the section a question about files, directories,
// lines or the largest commits asks for, counted over every record; when
// the records carry no line statistics it says so instead of counting
// something else.
func writeChurn(b *strings.Builder, l *labels, query string, ev evidence) {
	a := askOf(query)
	if !a.any() {
		return
	}
	s := ev.lineStats()
	if s == nil || s.Commits == 0 && s.Merges == 0 {
		if s != nil || ev.holds(sdk.KindCommit) > 0 {
			fmt.Fprintf(b, "\n### %s\n\n- %s\n", l.LineStats, l.NoLineStats)
		}
		return
	}
	fmt.Fprintf(b, "\n### %s\n\n", l.LineStats)
	fmt.Fprintf(b, "- "+l.counted(l.LinesTotal, s.Commits)+"\n", s.Additions, s.Deletions, s.Additions+s.Deletions, s.Commits)
	if s.Without > 0 {
		fmt.Fprintf(b, "- "+l.counted(l.LinesWithout, s.Without)+"\n", s.Without)
	}
	if s.Merges > 0 {
		fmt.Fprintf(b, "- "+l.counted(l.LinesMerges, s.Merges)+"\n", s.Merges)
	}
	if s.Clipped > 0 && (a.files || a.dirs) {
		fmt.Fprintf(b, "- "+l.counted(l.LinesClipped, s.Clipped)+"\n", s.Clipped)
	}
	if a.files {
		writeTop(b, l.TopFiles, l, s.Files, s.OtherFiles)
	}
	if a.dirs {
		writeTop(b, l.TopDirs, l, s.Dirs, s.OtherDirs)
	}
	if a.largest {
		fmt.Fprintf(b, "\n%s:\n\n", l.LargestCommits)
		for i, c := range s.Largest {
			id := c.Short
			if id == "" {
				id = shortID(c.ID)
			}
			fmt.Fprintf(b, "%d. `%s` %s — "+l.LinesOf+"\n", i+1, id, text.Clip(text.OneLine(c.Title), 100), c.Lines(), c.Additions, c.Deletions)
		}
	}
}

// writeTop ranks the paths of m by the commits touching them.
func writeTop(b *strings.Builder, heading string, l *labels, m map[string]int, other int) {
	fmt.Fprintf(b, "\n%s:\n\n", heading)
	for i, p := range sdk.Top(m, maxChurn) {
		fmt.Fprintf(b, "%d. `%s` — "+l.counted(l.CommitsTouching, p.Commits)+"\n", i+1, text.OneLine(p.Path), p.Commits)
	}
	if other > 0 {
		fmt.Fprintf(b, "- "+l.OtherPaths+"\n", other)
	}
}
