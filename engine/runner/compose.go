package runner

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// caveatPrefix starts each of a report's first lines that says why the
// answer is partial.
const caveatPrefix = "Caveat: "

// maxSectionRecords bounds the records a section without a writer's text lists.
const maxSectionRecords = 20

// Compose is the report of res (Markdown): its caveats first, then one
// "Understood" line per answer, then a section per answer headed by that
// line, holding the writer's text for the intent (its title dropped, its
// headings below the section's). A result without answers keeps its
// report, after the caveats. Compose is idempotent: a report it composed
// is composed again with the result's current caveats (a caller that adds
// one after the run composes again).
func Compose(res *Result) string {
	var b strings.Builder
	said := map[string]bool{}
	for _, c := range res.Caveats {
		if c = oneLine(c); !said[c] { // two steps may give the same reason
			said[c] = true
			fmt.Fprintf(&b, "%s%s\n\n", caveatPrefix, c)
		}
	}
	fu := followUpLine(res)
	if len(res.Answers) == 0 {
		rest := withoutCaveats(strings.TrimLeft(res.Report, "\n"))
		if fu != "" {
			head := "Understood:\n- " + fu + "\n\n"
			b.WriteString(head)
			rest = strings.TrimPrefix(rest, head) // composed before
		}
		b.WriteString(rest)
		return strings.TrimRight(b.String(), "\n") + "\n"
	}
	answers := distinctAnswers(res.Answers)
	b.WriteString("Understood:\n")
	if fu != "" {
		fmt.Fprintf(&b, "- %s\n", fu)
	}
	for _, a := range answers {
		fmt.Fprintf(&b, "- %s\n", oneLine(a.Line()))
	}
	for _, a := range answers {
		b.WriteString("\n" + Section(res, a))
	}
	return b.String()
}

// distinctAnswers drops an answer whose line repeats an earlier one's: two
// intents of one question ("how many commits…" is a commit question and a
// counting one) that found the same thing are said once.
func distinctAnswers(answers []Answer) []Answer {
	out := make([]Answer, 0, len(answers))
	seen := map[string]bool{}
	for _, a := range answers {
		if line := oneLine(a.Line()); !seen[line] {
			seen[line] = true
			out = append(out, a)
		}
	}
	return out
}

// Section is answer a's section of the report: its line as the heading,
// then the writer's text, or how its steps ended and its records when no
// writer answered.
func Section(res *Result, a Answer) string {
	body := section(a.Report)
	if body == "" {
		body = stepsAndRecords(res, a)
	}
	if body == "" {
		return "## " + oneLine(a.Line()) + "\n"
	}
	return "## " + oneLine(a.Line()) + "\n\n" + body + "\n"
}

// section is a writer's report as a section's body: its title line
// dropped and its headings shifted so the highest is level 3.
func section(report string) string {
	lines := strings.Split(strings.TrimSpace(report), "\n")
	if headingLevel(lines[0]) == 1 {
		lines = lines[1:]
	}
	top, fenced := 0, false
	for _, l := range lines {
		if isFence(l) {
			fenced = !fenced
		} else if n := headingLevel(l); !fenced && n > 0 && (top == 0 || n < top) {
			top = n
		}
	}
	shift := 3 - top
	fenced = false
	for i, l := range lines {
		if isFence(l) {
			fenced = !fenced
			continue
		}
		if n := headingLevel(l); !fenced && n > 0 {
			lines[i] = strings.Repeat("#", min(6, max(1, n+shift))) + l[n:]
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func headingLevel(line string) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n == len(line) || line[n] != ' ' {
		return 0
	}
	return n
}

func isFence(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// stepsAndRecords is a section when no writer answered the intent: how its
// steps ended and the records that answer it.
func stepsAndRecords(res *Result, a Answer) string {
	var b strings.Builder
	for _, id := range a.Steps {
		for _, s := range res.Steps {
			if s.ID != id {
				continue
			}
			fmt.Fprintf(&b, "- %s %s: %s", s.ID, s.Description, s.Status)
			if s.Error != "" {
				fmt.Fprintf(&b, " — %s", oneLine(s.Error))
			}
			b.WriteByte('\n')
		}
	}
	if len(a.Records) > 0 {
		byID := make(map[string]sdk.Record, len(res.Records))
		for _, r := range res.Records {
			if _, ok := byID[r.ID]; !ok {
				byID[r.ID] = r
			}
		}
		fmt.Fprintf(&b, "\nRecords (%d):\n", len(a.Records))
		for _, id := range a.Records[:min(len(a.Records), maxSectionRecords)] {
			r, ok := byID[id]
			if !ok {
				r = sdk.Record{ID: id}
			}
			fmt.Fprintf(&b, "- `%s` %s", DisplayID(r), oneLine(r.Title))
			if !r.Time.IsZero() {
				fmt.Fprintf(&b, " — %s", day(r.Time))
			}
			if r.URL != "" {
				fmt.Fprintf(&b, " (%s)", r.URL)
			}
			b.WriteByte('\n')
		}
		if n := len(a.Records) - maxSectionRecords; n > 0 {
			fmt.Fprintf(&b, "- … and %d more\n", n)
		}
	}
	return strings.TrimSpace(b.String())
}

// withoutCaveats is report without the caveat lines Compose opens it with.
func withoutCaveats(report string) string {
	for strings.HasPrefix(report, caveatPrefix) {
		_, rest, ok := strings.Cut(report, "\n\n")
		if !ok {
			return ""
		}
		report = rest
	}
	return report
}
