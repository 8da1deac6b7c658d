package file

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FormatMarkdown is documentation text: Markdown, reStructuredText,
// AsciiDoc or plain text, one record per section.
const FormatMarkdown = "markdown"

// Bounds of a documentation file's sections.
const (
	maxSectionBody = 4000    // bytes of a section's text kept; the rest is cut with "…"
	maxDocFile     = 2 << 20 // bytes read of one documentation file
)

// decodeSections splits documentation text into sections at its headings
// (Markdown "#" and underlined headings, reStructuredText underlines,
// AsciiDoc "=" titles) and passes each as an object with the section's
// heading (title), text (body), the file (path) and the heading's line.
// Text before the first heading is a section titled with the file name.
// Headings inside fenced code blocks are text.
func decodeSections(ctx context.Context, name, shown string, r io.Reader, fn rowFunc) error {
	sc := bufio.NewScanner(io.LimitReader(r, maxDocFile))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var (
		title   = shown
		start   = 1
		body    strings.Builder
		prev    string // the previous line, a setext heading's text
		prevAt  int
		fence   string
		line    int
		emitted bool
		// carried is an empty section's heading ("String Functions" right
		// above "trim(str)"): the next section's title starts with it, so
		// the section is found by what it is part of.
		carried string
	)
	flush := func() error {
		text := strings.TrimSpace(body.String())
		body.Reset()
		if text == "" && (emitted || title == shown) {
			if title != shown {
				carried = title
			}
			return nil
		}
		emitted, carried = true, ""
		if len(text) > maxSectionBody {
			text = cut(text, maxSectionBody)
		}
		return fn(start, map[string]any{"id": fmt.Sprintf("%s:%d", shown, start), "title": title, "body": text, "path": shown, "line": json.Number(strconv.Itoa(start))})
	}
	asciidoc := strings.EqualFold(filepath.Ext(name), ".adoc") || strings.EqualFold(filepath.Ext(name), ".asciidoc") || strings.EqualFold(filepath.Ext(name), ".txt")
	blank := true // the previous line was blank, or there was none
	for sc.Scan() {
		line++
		if line%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		text := strings.TrimRight(sc.Text(), " \t\r")
		switch {
		case fence != "":
			if strings.HasPrefix(strings.TrimSpace(text), fence) {
				fence = ""
			}
		case prev != "" && isUnderline(text, prev):
			// The previous line was the heading: take it out of the body.
			b := strings.TrimSuffix(strings.TrimRight(body.String(), "\n"), prev)
			body.Reset()
			body.WriteString(b)
			if err := flush(); err != nil {
				return err
			}
			title, start, prev, blank = under(carried, strings.TrimSpace(prev)), prevAt, "", false
			continue
		default:
			if h, ok := atxHeading(text); ok {
				if err := flush(); err != nil {
					return err
				}
				title, start, prev, blank = under(carried, h), line, "", false
				continue
			}
			if f := opensFence(text, blank, asciidoc); f != "" {
				fence = f
			}
		}
		body.WriteString(text)
		body.WriteByte('\n')
		prev, prevAt = "", 0
		// An AsciiDoc list continuation ("+") is no heading and, like a
		// blank line, may open a listing block.
		continuation := asciidoc && strings.TrimSpace(text) == "+"
		if fence == "" && strings.TrimSpace(text) != "" && !continuation {
			prev, prevAt = text, line
		}
		blank = strings.TrimSpace(text) == "" || continuation
	}
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return flush() // a line longer than the scanner's buffer ends the file there
}

// under is heading h below the empty section's heading parent, if any.
func under(parent, h string) string {
	if parent == "" {
		return h
	}
	return parent + " › " + h
}

// atxHeading is a Markdown "# Heading" or AsciiDoc "= Title" line's text.
func atxHeading(line string) (string, bool) {
	for _, mark := range []byte{'#', '='} {
		n := 0
		for n < len(line) && line[n] == mark {
			n++
		}
		if n == 0 || n > 6 || n >= len(line) || line[n] != ' ' {
			continue
		}
		h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(line[n:]), string(mark)))
		if i := strings.LastIndex(h, " {#"); i > 0 && strings.HasSuffix(h, "}") {
			h = strings.TrimSpace(h[:i]) // a heading's anchor: "trim(str) {#trim}"
		}
		if h != "" {
			return h, true
		}
	}
	return "", false
}

// isUnderline reports whether line underlines heading: one repeated
// punctuation character (= - ~ ^ * + " ' `), at least three, as Markdown's
// setext headings and reStructuredText's section titles are written. A
// list item or a table rule is not one.
func isUnderline(line, heading string) bool {
	if len(line) < 3 || strings.HasPrefix(strings.TrimSpace(heading), "- ") || strings.HasPrefix(heading, "|") {
		return false
	}
	c := line[0]
	if !strings.ContainsRune("=-~^*+\"'`#", rune(c)) {
		return false
	}
	return strings.Count(line, string(c)) == len(line)
}

// opensFence is the fence a line opens, or "": Markdown's ``` and ~~~
// anywhere, and after a blank line AsciiDoc's ---- listing and .... literal
// delimiters (in Markdown a dashed line there is a rule).
func opensFence(line string, blank, asciidoc bool) string {
	t := strings.TrimSpace(line)
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			return f
		}
	}
	if asciidoc && blank && len(t) >= 4 {
		for _, c := range []string{"-", "."} {
			if strings.Count(t, c) == len(t) {
				return t[:4]
			}
		}
	}
	return ""
}

// cut shortens text to at most n bytes at a rune boundary, marking the cut.
func cut(text string, n int) string {
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return strings.TrimSpace(text[:n]) + "…"
}
