package rules

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	sdkredact "github.com/nous-dev/nous/sdk/redact"
)

// Load reads a rules file, or every .hcl and .hcl.json file of a directory
// (not recursive, in name order), and compiles it into a Ruleset. A single
// file may also use the .json extension for HCL's JSON syntax.
//
// The returned Ruleset is never nil: when diags has errors it holds what
// could be decoded, which is good for linting but not for planning.
func Load(p string, opts ...Option) (*Ruleset, hcl.Diagnostics) {
	info, err := os.Stat(p)
	if err != nil {
		return emptyRuleset(), readError(p, err)
	}
	var names []string
	if info.IsDir() {
		entries, err := os.ReadDir(p)
		if err != nil {
			return emptyRuleset(), readError(p, err)
		}
		for _, e := range entries {
			if !e.IsDir() && isRulesFile(e.Name()) {
				names = append(names, filepath.Join(p, e.Name()))
			}
		}
		if len(names) == 0 {
			return emptyRuleset(), readError(p, fmt.Errorf("no .hcl or .hcl.json files in the directory"))
		}
	} else {
		names = []string{p}
	}
	srcs := make([]source, 0, len(names))
	for _, name := range names {
		b, err := ReadSource(name)
		if err != nil {
			return emptyRuleset(), readError(name, err)
		}
		srcs = append(srcs, source{name: name, bytes: b})
	}
	return compile(srcs, newConfig(opts))
}

// LoadFS loads every .hcl and .hcl.json file of fsys, walking it recursively
// in lexical order; it is how the embedded default rules are loaded.
func LoadFS(fsys fs.FS, opts ...Option) (*Ruleset, hcl.Diagnostics) {
	var srcs []source
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !isRulesFile(path.Base(p)) {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		srcs = append(srcs, source{name: p, bytes: b})
		return nil
	})
	if err != nil {
		return emptyRuleset(), readError("rules", err)
	}
	if len(srcs) == 0 {
		return emptyRuleset(), readError("rules", fmt.Errorf("no .hcl or .hcl.json files"))
	}
	return compile(srcs, newConfig(opts))
}

// Parse compiles rules given as source text; name's extension selects the
// syntax (".json" for JSON, anything else native HCL).
func Parse(name string, src []byte, opts ...Option) (*Ruleset, hcl.Diagnostics) {
	return compile([]source{{name: name, bytes: src}}, newConfig(opts))
}

// source is one rules file's name and content.
type source struct {
	name  string
	bytes []byte
}

func isRulesFile(name string) bool {
	return strings.HasSuffix(name, ".hcl") || strings.HasSuffix(name, ".hcl.json")
}

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

func readError(name string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Cannot read rules",
		Detail:   fmt.Sprintf("%s: %v", name, err),
		Subject:  &hcl.Range{Filename: name, Start: hcl.InitialPos, End: hcl.InitialPos},
		Extra:    Finding{Check: CheckSyntax},
	}}
}

// compile parses, decodes, checks and indexes the sources. The workers
// parse the files, largest first, and compile what decoding schedules; this
// goroutine decodes the files in name order, each as soon as it is parsed,
// parsing it itself when no worker has started on it yet.
func compile(srcs []source, cfg config) (*Ruleset, hcl.Diagnostics) {
	sort.SliceStable(srcs, func(i, j int) bool { return srcs[i].name < srcs[j].name })
	w := startWorkers()
	parsed := parseAll(w, srcs)
	d := newDecoder(cfg, w)
	for i, s := range srcs {
		f, diags := parsed[i].wait(w)
		d.add(diags...)
		if f == nil {
			continue
		}
		d.rs.files[s.name] = f
		if diags.HasErrors() {
			// A file that does not parse is not decoded: its partial body
			// would only add confusing follow-up errors.
			continue
		}
		d.decodeFile(f)
	}
	d.finish()
	redact(d.diags, d.rs.secrets)
	return d.rs, d.diags
}

// redact removes secret values from diagnostic texts: a value read by env()
// from a secret-looking variable may end up quoted in an error.
func redact(diags hcl.Diagnostics, secrets []string) {
	if len(secrets) == 0 {
		return
	}
	r := sdkredact.New(secrets...)
	for _, d := range diags {
		d.Summary, d.Detail = r.String(d.Summary), r.String(d.Detail)
	}
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
		p.file, p.diags = ParseFile(p.src.name, p.src.bytes)
		close(p.done)
	}
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
