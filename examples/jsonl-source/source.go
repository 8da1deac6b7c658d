package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// version is this plugin's own version, reported by Describe.
const version = "0.1.0"

// maxLineDiagnostics bounds how many bad lines Configure reports.
const maxLineDiagnostics = 10

// Source serves records from a JSON-lines file, one JSON object per line.
// It re-reads the file on every Fetch, so edits show up at once.
type Source struct {
	mu     sync.RWMutex
	cfg    Config
	kinds  []string // record kinds seen in the file at Configure time
	loaded bool
}

// NewSource returns an unconfigured source.
func NewSource() *Source { return &Source{} }

// Describe says what the source is and what it understands.
func (s *Source) Describe(context.Context) (sdk.SourceInfo, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	kinds := s.kinds
	if len(kinds) == 0 {
		kinds = []string{sdk.KindDocument}
	}
	return sdk.SourceInfo{
		Name:         "jsonl",
		Version:      version,
		SDKVersion:   sdk.Version,
		Kinds:        kinds,
		Filters:      []string{filterKind, filterAuthor, filterQuery},
		ConfigSchema: config.Schema[Config](),
	}, nil
}

// Configure checks the configuration and every line of the file, and keeps
// the configuration when it has no errors.
func (s *Source) Configure(ctx context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := parseConfig(ctx, raw)
	if diags.HasErrors() {
		return diags, nil
	}
	kinds, lineDiags, err := scan(ctx, cfg)
	if err != nil {
		return nil, err
	}
	diags = append(diags, lineDiags...)
	if diags.HasErrors() {
		return diags, nil
	}
	s.mu.Lock()
	s.cfg, s.kinds, s.loaded = cfg, kinds, true
	s.mu.Unlock()
	return diags, nil
}

// Fetch streams the file's records that match req, in file order.
func (s *Source) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	s.mu.RLock()
	cfg, loaded := s.cfg, s.loaded
	s.mu.RUnlock()
	if !loaded {
		return sdk.Errorf(sdk.KindBadConfig, "jsonl: not configured; set config.path in the source block")
	}
	m := newMatcher(req)
	emitted := 0
	return eachLine(ctx, cfg, func(r sdk.Record) error {
		if !m.match(r) {
			return nil
		}
		if err := emit(r); err != nil {
			return err
		}
		emitted++
		if req.Limit > 0 && emitted >= req.Limit {
			return errStop
		}
		return nil
	})
}

// errStop ends eachLine early without an error.
var errStop = errors.New("stop")

// eachLine decodes the file line by line and calls fn for each record. A
// line that is not a JSON object stops it with an error naming file and line.
func eachLine(ctx context.Context, cfg Config, fn func(sdk.Record) error) error {
	f, err := os.Open(cfg.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return sdk.Errorf(sdk.KindNotFound, "jsonl: %v", err)
		}
		return sdk.Errorf(sdk.KindUnavailable, "jsonl: %v", err)
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 64<<10)
	base := filepath.Base(cfg.Path)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, readErr := rd.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			r, err := decodeLine(line, cfg, fmt.Sprintf("%s:%d", base, n))
			if err != nil {
				return sdk.Errorf(sdk.KindBadConfig, "jsonl: %s:%d: %v", cfg.Path, n, err)
			}
			if err := fn(r); err != nil {
				if errors.Is(err, errStop) {
					return nil
				}
				return err
			}
		}
		switch {
		case readErr == io.EOF:
			return nil
		case readErr != nil:
			return sdk.Errorf(sdk.KindUnavailable, "jsonl: read %s: %v", cfg.Path, readErr)
		}
	}
}

// scan reads the whole file once at Configure time: it reports bad lines as
// diagnostics (the first few) and collects the record kinds present.
func scan(ctx context.Context, cfg Config) ([]string, sdk.Diagnostics, error) {
	f, err := os.Open(cfg.Path)
	if err != nil {
		return nil, sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "Cannot read the file", Detail: err.Error(), Path: "path"}}, nil
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 64<<10)
	seen := map[string]bool{}
	var diags sdk.Diagnostics
	bad := 0
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		line, readErr := rd.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			r, err := decodeLine(line, cfg, "")
			switch {
			case err == nil:
				seen[r.Kind] = true
			case bad < maxLineDiagnostics:
				bad++
				diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Bad line in the file", Detail: fmt.Sprintf("%s:%d: %v", cfg.Path, n, err), Path: "path"})
			default:
				bad++
			}
		}
		if readErr == io.EOF {
			break
		}
		if readErr != nil {
			return nil, append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Cannot read the file", Detail: readErr.Error(), Path: "path"}), nil
		}
	}
	if bad > maxLineDiagnostics {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "More bad lines", Detail: fmt.Sprintf("%d more bad lines in %s not shown", bad-maxLineDiagnostics, cfg.Path), Path: "path"})
	}
	kinds := make([]string, 0, len(seen))
	for k := range seen {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds, diags, nil
}
