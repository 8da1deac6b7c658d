package report

import (
	"encoding/xml"
	"fmt"
	"io"
)

// JUnit XML as Jenkins, GitLab and most CI systems read it: one test suite,
// one test case per rules file, one failure per finding in that file.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	ClassName string         `xml:"classname,attr"`
	Failures  []junitFailure `xml:"failure"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(w io.Writer, in Input) error {
	byFile := map[string][]junitFailure{}
	for _, d := range in.Diagnostics {
		l := locate(d)
		byFile[l.file] = append(byFile[l.file], junitFailure{
			Message: fmt.Sprintf("%s:%d:%d: %s", l.file, l.line, l.column, d.Summary),
			Type:    fmt.Sprintf("%s/%s", severity(d), checkOf(d)),
			Text:    d.Detail,
		})
	}
	suite := junitSuite{Name: "nous lint"}
	for _, name := range fileNames(in) {
		c := junitCase{Name: name, ClassName: "nous.lint", Failures: byFile[name]}
		suite.Tests++
		suite.Failures += len(c.Failures)
		suite.Cases = append(suite.Cases, c)
	}
	if failures := byFile[""]; len(failures) > 0 {
		suite.Tests++
		suite.Failures += len(failures)
		suite.Cases = append(suite.Cases, junitCase{Name: "(no file)", ClassName: "nous.lint", Failures: failures})
	}
	out := junitSuites{Name: "nous lint", Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
