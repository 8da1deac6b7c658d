package ruletest

import (
	"fmt"
	"io"
	"strings"

	"github.com/nous-dev/nous/rules/report"
)

// Summary counts results.
type Summary struct {
	Total, Failed int
}

// Summarize counts the results and the failed ones.
func Summarize(results []Result) Summary {
	s := Summary{Total: len(results)}
	for _, r := range results {
		if !r.Passed() {
			s.Failed++
		}
	}
	return s
}

// WriteText writes one line per test (PASS/FAIL with its position), each
// failure as expected versus got, and a closing summary line.
func WriteText(w io.Writer, results []Result) error {
	var b strings.Builder
	for _, r := range results {
		status := "PASS"
		if !r.Passed() {
			status = "FAIL"
		}
		fmt.Fprintf(&b, "%s %s (%s)\n", status, r.Name, position(r))
		if r.Err != nil {
			fmt.Fprintf(&b, "    error: %v\n", r.Err)
		}
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "    %s\n        expected: %s\n        got:      %s\n", f.Field, f.Expected, f.Got)
		}
	}
	s := Summarize(results)
	if s.Failed == 0 {
		fmt.Fprintf(&b, "ok: %d passed\n", s.Total)
	} else {
		fmt.Fprintf(&b, "FAILED: %d of %d failed\n", s.Failed, s.Total)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func position(r Result) string {
	return fmt.Sprintf("%s:%d", r.Range.Filename, r.Range.Start.Line)
}

// WriteJUnit writes the results as JUnit XML, one testsuite per rules file.
func WriteJUnit(w io.Writer, results []Result) error {
	doc := report.JUnit{Name: "nous test"}
	index := map[string]int{}
	var (
		total     float64
		suiteSecs []float64 // per suite, summed as results come
	)
	for _, r := range results {
		file := r.Range.Filename
		i, ok := index[file]
		if !ok {
			i = len(doc.Suites)
			index[file] = i
			doc.Suites = append(doc.Suites, report.JUnitSuite{Name: file})
			suiteSecs = append(suiteSecs, 0)
		}
		s := &doc.Suites[i]
		secs := r.Duration.Seconds()
		total += secs
		suiteSecs[i] += secs
		c := report.JUnitCase{Name: r.Name, ClassName: file, File: file, Line: r.Range.Start.Line, Time: seconds(secs)}
		switch {
		case r.Err != nil:
			c.Error = &report.JUnitMessage{Message: r.Err.Error(), Type: "error", Text: r.Err.Error()}
			s.Errors++
			doc.Errors++
		case len(r.Failures) > 0:
			var text strings.Builder
			for _, f := range r.Failures {
				fmt.Fprintf(&text, "%s\n    expected: %s\n    got:      %s\n", f.Field, f.Expected, f.Got)
			}
			c.Failures = []report.JUnitMessage{{
				Message: fmt.Sprintf("%d expectation(s) failed, first %s", len(r.Failures), r.Failures[0].Field),
				Type:    "expectation", Text: text.String(),
			}}
			s.Failures++
			doc.Failures++
		}
		s.Tests++
		doc.Tests++
		s.Cases = append(s.Cases, c)
	}
	for i, secs := range suiteSecs {
		doc.Suites[i].Time = seconds(secs)
	}
	doc.Time = seconds(total)
	return doc.Write(w)
}

func seconds(s float64) string { return fmt.Sprintf("%.6f", s) }
