// Package report renders an executor result as text, Markdown, JSON (plan,
// result, history and trace) or NLWeb Items. Every format is deterministic:
// the same result renders to the same bytes, and the text, Markdown and
// NLWeb formats leave out timings altogether.
package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/sdk/redact"
)

// Formats lists the output formats.
var Formats = []string{"text", "markdown", "json", "nlweb"}

// Options tune rendering.
type Options struct {
	Trace    bool             // text and Markdown: append the reasoning trace
	Redactor *redact.Redactor // masks secrets in what is rendered
}

// Render writes res to w in format. Every string of res is masked before
// any format encodes it, so no escaping (JSON, Markdown) can spell a
// secret the redactor does not know; the rendered bytes are masked again.
func Render(w io.Writer, format string, res *runner.Result, opts Options) error {
	return Mask(res, opts.Redactor).Render(w, format, opts.Trace)
}

// Masked is a result whose every string is masked, to render in one format
// or several (a server keeps the JSON and answers in another) without
// masking it again for each.
type Masked struct {
	res      *runner.Result
	redactor *redact.Redactor
}

// Mask masks every string of res with r (nil masks nothing), as Render
// does before it renders.
func Mask(res *runner.Result, r *redact.Redactor) Masked {
	return Masked{res: redact.Value(r, res), redactor: r}
}

// Render writes the masked result to w in format, as Render does, with
// the reasoning trace appended to text and Markdown when trace is set.
func (m Masked) Render(w io.Writer, format string, trace bool) error {
	res, opts := m.res, Options{Trace: trace, Redactor: m.redactor}
	var b bytes.Buffer
	var err error
	switch format {
	case "text":
		renderText(&b, res, opts)
	case "markdown", "md":
		renderMarkdown(&b, res, opts)
	case "json":
		err = renderJSON(&b, res)
	case "nlweb":
		err = renderNLWeb(&b, res)
	default:
		return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return err
	}
	_, err = w.Write(opts.Redactor.Bytes(b.Bytes()))
	return err
}

func renderText(b *bytes.Buffer, res *runner.Result, opts Options) {
	b.WriteString(strings.TrimRight(res.Report, "\n"))
	b.WriteString("\n\n")
	if res.Status == runner.ResultNeedsClarification && res.Ambiguity != nil {
		fmt.Fprintf(b, "Status: %s (%s: %s)\n", res.Status, res.Ambiguity.Type, line(res.Ambiguity.Message))
	} else {
		writeSteps(b, res)
	}
	if opts.Trace {
		b.WriteString("\nTrace:\n")
		writeTrace(b, res, "  ")
	}
}

// writeSteps writes a run's status, its steps and what they found.
func writeSteps(b *bytes.Buffer, res *runner.Result) {
	fmt.Fprintf(b, "Status: %s (%s, %d pass(es)%s, mode %s)\n", res.Status, termination(res), passes(res), depths(res), res.Mode)
	if res.Error != "" {
		fmt.Fprintf(b, "Error: %s\n", line(res.Error))
	}
	b.WriteString("Steps:\n")
	refined := refinements(res)
	for _, s := range res.Steps {
		fmt.Fprintf(b, "  %-6s %-9s %s", line(s.ID), s.Status, line(s.Description))
		if s.Records > 0 {
			fmt.Fprintf(b, " (%d record(s))", s.Records)
		}
		if n := outsideNote(s); n != "" {
			fmt.Fprintf(b, " [%s]", n)
		}
		if s.Error != "" {
			fmt.Fprintf(b, " — %s", line(s.Error))
		}
		if s.Partial != "" {
			fmt.Fprintf(b, " — partial: %s", line(s.Partial))
		}
		b.WriteByte('\n')
		for _, n := range refined {
			if n.step == s.ID {
				fmt.Fprintf(b, "  %-6s %s\n", "", line(n.text))
			}
		}
	}
	for _, g := range res.Groups {
		fmt.Fprintf(b, "Tier %d: %d record(s)\n", g.Tier, len(g.Records))
	}
	if len(res.Pending) > 0 {
		fmt.Fprintf(b, "Pending commitments: %s\n", line(strings.Join(res.Pending, ", ")))
	}
}

func renderMarkdown(b *bytes.Buffer, res *runner.Result, opts Options) {
	b.WriteString(strings.TrimRight(res.Report, "\n"))
	b.WriteString("\n\n---\n\n")
	if res.Status == runner.ResultNeedsClarification && res.Ambiguity != nil {
		fmt.Fprintf(b, "**Status:** %s (%s: %s)\n", res.Status, res.Ambiguity.Type, escapeCell(res.Ambiguity.Message))
		if opts.Trace {
			b.WriteString("\n## Trace\n\n")
			writeTrace(b, res, "- ")
		}
		return
	}
	fmt.Fprintf(b, "**Status:** %s (%s, %d pass(es)%s, mode `%s`)\n\n", res.Status, termination(res), passes(res), depths(res), res.Mode)
	if res.Error != "" {
		fmt.Fprintf(b, "**Error:** %s\n\n", escapeCell(res.Error))
	}
	if res.Review != nil {
		fmt.Fprintf(b, "**Review:** %s — %s\n\n", escapeCell(res.Review.Status), escapeCell(res.Review.Critique))
	}
	b.WriteString("| step | status | description | records |\n| --- | --- | --- | --- |\n")
	for _, s := range res.Steps {
		desc := escapeCell(s.Description)
		if n := outsideNote(s); n != "" {
			desc += " [" + escapeCell(n) + "]"
		}
		if s.Error != "" {
			desc += " — " + escapeCell(s.Error)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %d |\n", escapeCell(s.ID), s.Status, desc, s.Records)
	}
	if notes := refinements(res); len(notes) > 0 {
		b.WriteString("\n**Refinements:**\n\n")
		for _, n := range notes {
			fmt.Fprintf(b, "- %s %s\n", escapeCell(n.step), escapeCell(n.text))
		}
	}
	if len(res.Groups) > 0 {
		b.WriteString("\n| tier | records |\n| --- | --- |\n")
		for _, g := range res.Groups {
			fmt.Fprintf(b, "| %d | %s |\n", g.Tier, escapeCell(strings.Join(g.Records, ", ")))
		}
	}
	if len(res.Records) > 0 {
		fmt.Fprintf(b, "\n## Evidence (%d)\n\n", len(res.Records))
		for _, r := range res.Records {
			title := r.Title
			if title == "" {
				title = r.ID
			}
			if r.URL != "" {
				fmt.Fprintf(b, "- [%s](%s) — %s", escapeCell(title), linkTarget(r.URL), escapeCell(r.Source))
			} else {
				fmt.Fprintf(b, "- %s — %s", escapeCell(title), escapeCell(r.Source))
			}
			if r.Tier > 0 {
				fmt.Fprintf(b, " (tier %d)", r.Tier)
			}
			b.WriteByte('\n')
		}
	}
	if opts.Trace {
		b.WriteString("\n## Trace\n\n")
		writeTrace(b, res, "- ")
	}
}

// outsideNote says when a step's records are not the answer to the asked
// period: "nearest activity before 2026-11-09 – 2026-11-15".
func outsideNote(s runner.StepResult) string {
	side := ""
	switch s.Outside {
	case "":
		return ""
	case runner.OutsideBefore:
		side = "before"
	case runner.OutsideAfter:
		side = "after"
	default:
		return "outside the asked period: " + s.Outside
	}
	note := "nearest activity " + side + " the asked period"
	switch since, until := s.AskedSince, s.AskedUntil; {
	case !since.IsZero() && !until.IsZero():
		note = "nearest activity " + side + " " + day(since) + " – " + day(until.Add(-time.Nanosecond))
	case !since.IsZero():
		note += " (from " + day(since) + ")"
	case !until.IsZero():
		note += " (until " + day(until.Add(-time.Nanosecond)) + ")"
	}
	return note
}

func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// writeTrace writes one line per entry of res's trace, without timestamps.
func writeTrace(b *bytes.Buffer, res *runner.Result, indent string) {
	if traceOff(res) {
		b.WriteString(indent + "(not recorded: reasoning_trace.enabled is false in the rules)\n")
		return
	}
	for _, e := range res.Trace {
		fmt.Fprintf(b, "%s%s [%s] %s", indent, e.ID, e.Stage, line(e.Thought))
		if e.Action != "" {
			fmt.Fprintf(b, " -> %s", line(e.Action))
		}
		fmt.Fprintf(b, " (%s)", e.Outcome)
		if len(e.Evidence) > 0 {
			fmt.Fprintf(b, "; evidence: %s", line(strings.Join(e.Evidence, " | ")))
		}
		if e.Error != "" {
			fmt.Fprintf(b, "; error: %s", line(e.Error))
		}
		if len(e.Corrections) > 0 {
			fmt.Fprintf(b, "; corrections: %s", line(strings.Join(e.Corrections, " | ")))
		}
		if len(e.Commitments) > 0 {
			fmt.Fprintf(b, "; commits: %s", line(strings.Join(e.Commitments, ", ")))
		}
		b.WriteByte('\n')
	}
}

func termination(res *runner.Result) string {
	if res.History == nil || res.History.Termination == "" {
		return "not run"
	}
	return res.History.Termination
}

func passes(res *runner.Result) int {
	if res.History == nil {
		return 0
	}
	return len(res.History.Passes)
}

// depths is ", depth NAME", with each level re-assessment moved the run
// to ("direct → focused"); "" when the run had no depth.
func depths(res *runner.Result) string {
	if res.History == nil || len(res.History.Passes) == 0 || res.History.Passes[0].Depth == "" {
		return ""
	}
	out := ", depth " + line(res.History.Passes[0].Depth)
	for _, p := range res.History.Passes {
		if c := p.DepthChange; c != nil {
			out += " → " + line(c.To)
		}
	}
	return out
}

// line keeps a field on its line: a step error or a record title holding
// "\n## Forged" cannot start a line of its own.
func line(s string) string { return redact.OneLine(s) }

// markdownEscaper backslash-escapes the characters that would make inline
// text a link, an image, code, raw HTML or a table cell boundary, so a
// field renders as the text it is.
var markdownEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "|", `\|`)

// escapeCell is s as Markdown text on one line (a table cell, a list
// item): a leading "#", "-", "+" or "*" is escaped too, as it would make a
// list item a heading or a nested list.
func escapeCell(s string) string {
	s = markdownEscaper.Replace(line(s))
	if s != "" && strings.ContainsRune("#-+*", rune(s[0])) {
		s = `\` + s
	}
	return s
}

// linkTarget is url on one line with the characters that would end or
// break a Markdown link destination percent-encoded.
func linkTarget(url string) string { return linkEscaper.Replace(line(url)) }

var linkEscaper = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", "`", "%60")
