package report

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/sdk/redact"
)

// redacted returns in with its secrets masked before any format encodes
// it: the summary, detail and file name of every diagnostic, and the
// source lines text snippets quote (line by line, so line numbers hold).
func (in Input) redacted() Input {
	r := in.Redactor
	if r == nil {
		return in
	}
	out := Input{Diagnostics: make(hcl.Diagnostics, len(in.Diagnostics)), Files: make(map[string]*hcl.File, len(in.Files))}
	for i, d := range in.Diagnostics {
		c := *d
		c.Summary, c.Detail = r.String(d.Summary), r.String(d.Detail)
		if d.Subject != nil {
			s := *d.Subject
			s.Filename = r.String(s.Filename)
			c.Subject = &s
		}
		out.Diagnostics[i] = &c
	}
	for name, f := range in.Files {
		if f != nil {
			f = &hcl.File{Body: f.Body, Nav: f.Nav, Bytes: maskLines(r, f.Bytes)}
		}
		out.Files[r.String(name)] = f
	}
	return out
}

// maskLines masks each line of src on its own.
func maskLines(r *redact.Redactor, src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i, l := range lines {
		lines[i] = r.Bytes(l)
	}
	return bytes.Join(lines, nil)
}
