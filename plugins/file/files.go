package file

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// embedded holds copies of the example data files (examples/data/), used
// when the default rules' relative path does not exist because nous runs
// outside its source tree. A test keeps the copies identical.
//
//go:embed data/*.jsonl
var embedded embed.FS

// embeddedDir is the directory whose files the embedded copies stand for.
const embeddedDir = "examples/data/"

// input is one file to read.
type input struct {
	name   string // as shown in errors: the path, or "embedded:NAME"
	shown  string // as documentation records name it: the path under the directory ("docs/intro.md")
	format string
	open   func() (io.ReadCloser, error)
}

// resolve lists the files cfg.Path names: a file, a glob, or every
// .json, .jsonl, .ndjson and .csv file in a directory, sorted by name (the
// documentation files under it for format markdown: see docInputs).
// Every file is checked as openPath would open it, so a configuration
// naming a device, a FIFO or a file under /proc fails at Configure.
func resolve(cfg config) ([]input, error) {
	p := cfg.Path
	if strings.ContainsAny(p, "*?[") {
		matches, err := filepath.Glob(p)
		if err != nil {
			return nil, sdk.Errorf(sdk.KindBadConfig, "file: path %q is not a valid glob: %v", p, err)
		}
		files := notDirs(matches)
		if len(files) == 0 {
			return nil, sdk.Errorf(sdk.KindNotFound, "file: no files match %q", p)
		}
		return osInputs(files, cfg.Format)
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if in, ok := embeddedInput(p, cfg.Format); ok {
			return []input{in}, nil
		}
		return osInputs([]string{p}, cfg.Format) // checkPath says what does not exist
	case err != nil:
		return nil, sdk.Errorf(sdk.KindBadConfig, "file: %v", err)
	case fi.IsDir() && cfg.Format == FormatMarkdown:
		return docInputs(cfg)
	case fi.IsDir():
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, sdk.Errorf(sdk.KindBadConfig, "file: %v", err)
		}
		var names []string
		for _, e := range entries {
			if formatOf(e.Name()) != "" {
				names = append(names, filepath.Join(p, e.Name()))
			}
		}
		files := notDirs(names)
		if len(files) == 0 {
			return nil, sdk.Errorf(sdk.KindNotFound, "file: directory %s holds no .json, .jsonl, .ndjson or .csv files", p)
		}
		return osInputs(files, cfg.Format)
	}
	return osInputs([]string{p}, cfg.Format)
}

// notDirs drops the directories (and links to directories) of paths: a
// glob or a directory listing reads the files among them, and checkPath
// refuses any that is not a regular file.
func notDirs(paths []string) []string {
	var out []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			continue
		}
		out = append(out, p)
	}
	return out
}

// osInputs makes inputs of files, each with the configured format or the
// one its extension names, after checking that each may be read.
func osInputs(files []string, format string) ([]input, error) {
	sort.Strings(files)
	out := make([]input, 0, len(files))
	for _, f := range files {
		real, err := checkPath(f)
		if err != nil {
			return nil, err
		}
		fmtName := format
		if fmtName == "" {
			if fmtName = formatOf(f); fmtName == "" {
				return nil, sdk.Errorf(sdk.KindBadConfig, "file: cannot tell the format of %s from its extension; set format to json, jsonl or csv", f)
			}
		}
		in := input{name: f, format: fmtName, open: func() (io.ReadCloser, error) { return openChecked(f, real) }}
		if fmtName == FormatMarkdown { // only documentation records name their file
			in.shown = shownPath(f)
		}
		out = append(out, in)
	}
	return out, nil
}

// embeddedInput returns the embedded copy standing for p, if p names one
// of the example data files.
func embeddedInput(p, format string) (input, bool) {
	slashed := filepath.ToSlash(filepath.Clean(p))
	base := path.Base(slashed)
	if !strings.HasSuffix("/"+slashed, "/"+embeddedDir+base) {
		return input{}, false
	}
	if _, err := fs.Stat(embedded, "data/"+base); err != nil {
		return input{}, false
	}
	if format == "" {
		format = formatOf(base)
	}
	return input{name: "embedded:" + base, format: format, open: func() (io.ReadCloser, error) { return embedded.Open("data/" + base) }}, true
}

// formatOf names the format of a file from its extension, "" if unknown.
func formatOf(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return FormatJSON
	case ".jsonl", ".ndjson":
		return FormatJSONL
	case ".csv":
		return FormatCSV
	}
	return ""
}

// decode streams the rows of in to fn, each at most maxRow bytes, until
// ctx ends.
func (in input) decode(ctx context.Context, fn rowFunc) error {
	f, err := in.open()
	if err != nil {
		return err
	}
	return in.decodeOpened(ctx, f, fn)
}

// decodeOpened is decode of the opened f, which it closes.
func (in input) decodeOpened(ctx context.Context, f io.ReadCloser, fn rowFunc) error {
	defer f.Close()
	switch in.format {
	case FormatJSON:
		return decodeJSON(newRowReader(ctx, in.name, f, maxRow, true), fn)
	case FormatJSONL:
		return decodeJSONLines(newRowReader(ctx, in.name, f, maxRow, false), fn)
	case FormatCSV:
		return decodeCSV(newRowReader(ctx, in.name, f, maxRow, true), fn)
	case FormatMarkdown:
		return decodeSections(ctx, in.name, in.shown, f, fn)
	}
	return fmt.Errorf("file: %s: unknown format %q", in.name, in.format)
}
