package rules

import (
	"bytes"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
)

// ParseFile parses one file in the syntax its extension selects, tagging
// syntax errors with CheckSyntax.
func ParseFile(name string, src []byte) (*hcl.File, hcl.Diagnostics) {
	if diags := unparseable(name, src); diags != nil {
		return nil, diags
	}
	var (
		f     *hcl.File
		diags hcl.Diagnostics
	)
	if strings.HasSuffix(name, ".json") {
		// Native HCL skips a UTF-8 byte order mark; the JSON parser
		// does not, and Windows editors write one.
		f, diags = json.Parse(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")), name)
	} else {
		f, diags = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	}
	return f, tag(diags, CheckSyntax)
}

// parsing is one file's parse, done once by whoever claims it first: a
// worker, or the decoding goroutine when it needs the file.
type parsing struct {
	src     source
	claimed atomic.Bool
	done    chan struct{} // closed when file and diags are set
	file    *hcl.File
	diags   hcl.Diagnostics
}

// run parses the file unless someone else has claimed it.
func (p *parsing) run() {
	if p.claimed.CompareAndSwap(false, true) {
		p.file, p.diags = p.src.parse()
		close(p.done)
	}
}

// parse returns the file's syntax tree: the one its file system holds for
// its content when there is one, else the one ParseFile makes. The former
// has no navigation (hclsyntax makes it alone); Ruleset.Files parses such a
// file again, should diagnostics be shown.
func (s source) parse() (*hcl.File, hcl.Diagnostics) {
	if s.parsed != nil && !strings.HasSuffix(s.name, ".json") && unparseable(s.name, s.bytes) == nil {
		if body := s.parsed.ParsedBody(s.name, s.bytes); body != nil {
			return &hcl.File{Body: body, Bytes: s.bytes}, nil
		}
	}
	return ParseFile(s.name, s.bytes)
}

// wait returns the parsed file, parsing it now if no one has started,
// else working on other tasks until it is parsed.
func (p *parsing) wait(w *workers) (*hcl.File, hcl.Diagnostics) {
	p.run()
	w.await(p.done)
	return p.file, p.diags
}

// parseAll schedules the parsing of every source on the workers, largest
// first: parsing is most of the cost of a load, and the largest file is on
// the critical path. Results keep source order.
func parseAll(w *workers, srcs []source) []*parsing {
	out := make([]*parsing, len(srcs))
	for i, s := range srcs {
		out[i] = &parsing{src: s, done: make(chan struct{})}
	}
	bySize := slices.Clone(out)
	slices.SortStableFunc(bySize, func(a, b *parsing) int { return len(b.src.bytes) - len(a.src.bytes) })
	for _, p := range bySize {
		w.run(p.run)
	}
	return out
}
