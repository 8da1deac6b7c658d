package report

import (
	"encoding/xml"
	"fmt"
	"io"
)

// JUnit is a JUnit XML document as Jenkins, GitLab and most CI systems read
// it; `nous lint` and `nous test` both write one.
type JUnit struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr,omitempty"`
	Time     string       `xml:"time,attr,omitempty"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one test suite of a JUnit document.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr,omitempty"`
	Time     string      `xml:"time,attr,omitempty"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one test case: passed when it has no failure and no error.
type JUnitCase struct {
	Name      string         `xml:"name,attr"`
	ClassName string         `xml:"classname,attr"`
	File      string         `xml:"file,attr,omitempty"`
	Line      int            `xml:"line,attr,omitempty"`
	Time      string         `xml:"time,attr,omitempty"`
	Failures  []JUnitMessage `xml:"failure"`
	Error     *JUnitMessage  `xml:"error,omitempty"`
}

// JUnitMessage is a failure or an error of a test case.
type JUnitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Write writes the document, indented, after the XML header.
func (j JUnit) Write(w io.Writer) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(j); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// writeJUnit writes the findings as one test suite with one test case per
// rules file and one failure per finding in that file.
func writeJUnit(w io.Writer, in Input) error {
	byFile := map[string][]JUnitMessage{}
	for _, d := range in.Diagnostics {
		l := locate(d)
		byFile[l.file] = append(byFile[l.file], JUnitMessage{
			Message: fmt.Sprintf("%s:%d:%d: %s", l.file, l.line, l.column, d.Summary),
			Type:    fmt.Sprintf("%s/%s", severity(d), checkOf(d)),
			Text:    d.Detail,
		})
	}
	suite := JUnitSuite{Name: "nous lint"}
	for _, name := range fileNames(in) {
		c := JUnitCase{Name: name, ClassName: "nous.lint", Failures: byFile[name]}
		suite.Tests++
		suite.Failures += len(c.Failures)
		suite.Cases = append(suite.Cases, c)
	}
	if failures := byFile[""]; len(failures) > 0 {
		suite.Tests++
		suite.Failures += len(failures)
		suite.Cases = append(suite.Cases, JUnitCase{Name: "(no file)", ClassName: "nous.lint", Failures: failures})
	}
	return JUnit{Name: "nous lint", Tests: suite.Tests, Failures: suite.Failures, Suites: []JUnitSuite{suite}}.Write(w)
}
