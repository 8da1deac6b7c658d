package lint

import (
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/report"
)

// ignoreMarker starts an inline suppression comment:
//
//	# nous-lint-ignore: unused, missing-description
const ignoreMarker = "nous-lint-ignore:"

// Suppress drops the diagnostics whose check is named in a nous-lint-ignore
// comment on the line the diagnostic starts on or on the line before it.
func Suppress(diags hcl.Diagnostics, files map[string]*hcl.File) hcl.Diagnostics {
	kept := diags[:0:0]
	for _, d := range diags {
		if !suppressed(d, files) {
			kept = append(kept, d)
		}
	}
	return kept
}

func suppressed(d *hcl.Diagnostic, files map[string]*hcl.File) bool {
	check := rules.CheckName(d)
	if check == "" || d.Subject == nil {
		return false
	}
	f := files[d.Subject.Filename]
	if f == nil {
		return false
	}
	line := d.Subject.Start.Line
	return ignores(report.SourceLine(f.Bytes, line), check) || ignores(report.SourceLine(f.Bytes, line-1), check)
}

// ignores reports whether a line carries a comment ignoring check.
func ignores(line []byte, check string) bool {
	i := bytes.Index(line, []byte(ignoreMarker))
	if i < 0 || !isComment(line[:i]) {
		return false
	}
	for _, item := range strings.Split(string(line[i+len(ignoreMarker):]), ",") {
		// Text after a name ("unused -- why") is a reason, not a check.
		if f := strings.Fields(item); len(f) > 0 && f[0] == check {
			return true
		}
	}
	return false
}

// isComment reports whether the text before the marker opens a comment.
func isComment(before []byte) bool {
	t := bytes.TrimRight(before, " \t")
	return bytes.HasSuffix(t, []byte("#")) || bytes.HasSuffix(t, []byte("//")) || bytes.HasSuffix(t, []byte("/*"))
}
