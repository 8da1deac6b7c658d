package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// writeGitHub prints GitHub Actions workflow commands, which the runner
// turns into annotations on the pull request's files.
func writeGitHub(w io.Writer, in Input) error {
	bw := bufio.NewWriter(w)
	for _, d := range in.Diagnostics {
		l := locate(d)
		message := d.Summary
		if d.Detail != "" {
			message += "\n\n" + d.Detail
		}
		fmt.Fprintf(bw, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			severity(d), escapeProperty(l.file), l.line, l.column, l.endLine, l.endColumn,
			escapeProperty(checkOf(d)), escapeData(message))
	}
	return bw.Flush()
}

// escapeData escapes a workflow command's message as the runner expects.
var escapeData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// escapeProperty escapes a workflow command property value.
var escapeProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
