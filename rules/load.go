package rules

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
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
			if !e.IsDir() && IsFile(e.Name()) {
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
		srcs = append(srcs, source{name: name, bytes: b, dir: absDir(name)})
	}
	return load(srcs, newConfig(opts))
}

// LoadFS loads every .hcl and .hcl.json file of fsys, walking it recursively
// in lexical order; it is how the embedded default rules are loaded. When
// fsys is Parsed, a file it holds the syntax tree of is not parsed again.
func LoadFS(fsys fs.FS, opts ...Option) (*Ruleset, hcl.Diagnostics) {
	var srcs []source
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !IsFile(path.Base(p)) {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		parsed, _ := fsys.(Parsed)
		srcs = append(srcs, source{name: p, bytes: b, parsed: parsed})
		return nil
	})
	if err != nil {
		return emptyRuleset(), readError("rules", err)
	}
	if len(srcs) == 0 {
		return emptyRuleset(), readError("rules", fmt.Errorf("no .hcl or .hcl.json files"))
	}
	return load(srcs, newConfig(opts))
}

// Parse compiles rules given as source text; name's extension selects the
// syntax (".json" for JSON, anything else native HCL).
func Parse(name string, src []byte, opts ...Option) (*Ruleset, hcl.Diagnostics) {
	return load([]source{{name: name, bytes: src}}, newConfig(opts))
}

// source is one rules file's name and content.
type source struct {
	name   string
	bytes  []byte
	parsed Parsed // may hold the file's syntax tree; nil: none does
	dir    string // the file's directory on disk; "" when it is not a file (the working directory stands in)
}

// absDir is the absolute directory of the file name, "" when unknown.
func absDir(name string) string {
	dir, err := filepath.Abs(filepath.Dir(name))
	if err != nil {
		return ""
	}
	return dir
}

// Parsed is a file system whose rules files come parsed already, as the
// embedded default rules do (see package snapshot): LoadFS takes a file's
// syntax tree from it rather than parsing the file, which is most of the
// cost of loading rules.
type Parsed interface {
	// ParsedBody returns the body hclsyntax.ParseConfig returns for the
	// file named name whose content is src, or nil when it holds none for
	// that content. It is called concurrently, for different files.
	ParsedBody(name string, src []byte) *hclsyntax.Body
}

// IsFile reports whether a directory entry named name is a rules file
// (.hcl or .hcl.json), as Load reads them from a directory.
func IsFile(name string) bool {
	return strings.HasSuffix(name, ".hcl") || strings.HasSuffix(name, ".hcl.json")
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

// load runs the stages over the sources: parse (on the workers, largest
// first), decode (on this goroutine, in name order, each file as soon as
// it is parsed; it schedules the compilation of conditions, patterns and
// templates on the workers) and compile (names resolved across files,
// defaults that depend on other blocks, the index) into a Ruleset.
func load(srcs []source, cfg config) (*Ruleset, hcl.Diagnostics) {
	sort.SliceStable(srcs, func(i, j int) bool { return srcs[i].name < srcs[j].name })
	w := startWorkers()
	parsed := parseAll(w, srcs)
	d := newDecoder(cfg, w)
	for _, p := range parsed {
		f, diags := p.wait(w)
		d.remotes.dir = p.src.dir
		d.decode(p.src.name, f, diags)
	}
	return d.compile()
}
