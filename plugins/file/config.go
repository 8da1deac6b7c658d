package file

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nous-dev/nous/sdk"
	sdkconfig "github.com/nous-dev/nous/sdk/config"
)

// config is the file source's configuration, the rules file's config map.
type config struct {
	Path   string            `json:"path" config:"required" doc:"a file, a glob such as data/*.jsonl, or a directory"`
	Format string            `json:"format" enum:"json,jsonl,csv,markdown" doc:"default: from each file's extension; markdown reads documentation, one record per section"`
	Kind   string            `json:"kind" default:"document"`
	Source string            `json:"source" default:"file" doc:"record source name, looked up in the tier table"`
	Fields map[string]string `json:"fields" want:"a map of record field to column name" doc:"record field → column name"`
	// Documentation (format markdown, path a directory).
	Include  []string `json:"include" doc:"markdown: globs of the files under the directory, ** for any depth; default: every documentation file"`
	MaxFiles int      `json:"max_files" default:"300" doc:"markdown: files read at most"`
	MaxBytes int      `json:"max_bytes" default:"8388608" doc:"markdown: bytes read at most, over all files"`

	shown string // Path as a reader sees it, see shownPath
}

// decodeConfig decodes raw and fills defaults. Unknown keys are warnings;
// wrong types, unknown formats and unknown mapped fields are errors.
func decodeConfig(raw json.RawMessage) (config, sdk.Diagnostics) {
	var cfg config
	diags, ok := sdkconfig.Decode("file", raw, &cfg)
	if !ok {
		return cfg, diags
	}
	errorf := func(path, format string, args ...any) {
		diags = append(diags, sdkconfig.Error(path, "file: "+fmt.Sprintf(format, args...), ""))
	}
	if cfg.Path != "" && strings.TrimSpace(cfg.Path) == "" {
		errorf("path", "config needs path (a file, glob or directory)")
	}
	cfg.Format = strings.ToLower(strings.TrimSpace(cfg.Format))
	switch cfg.Format {
	case "", FormatJSON, FormatJSONL, FormatCSV, FormatMarkdown:
	case "ndjson":
		cfg.Format = FormatJSONL
	case "md":
		cfg.Format = FormatMarkdown
	default:
		errorf("format", "format %q: want json, jsonl, csv or markdown", cfg.Format)
	}
	for i, g := range cfg.Include {
		if _, err := path.Match(strings.ReplaceAll(g, "**", "*"), ""); err != nil || strings.TrimSpace(g) == "" {
			errorf(fmt.Sprintf("include[%d]", i), "include %q is not a valid glob", g)
		}
	}
	if cfg.MaxFiles < 1 {
		errorf("max_files", "max_files must be at least 1, got %d", cfg.MaxFiles)
	}
	if cfg.MaxBytes < 1 {
		errorf("max_bytes", "max_bytes must be at least 1, got %d", cfg.MaxBytes)
	}
	known := make(map[string]bool, len(recordFields))
	for _, f := range recordFields {
		known[f] = true
	}
	fields := make([]string, 0, len(cfg.Fields))
	for f := range cfg.Fields {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	columns := make(map[string]string)
	for _, f := range fields {
		col := cfg.Fields[f]
		switch {
		case !known[f]:
			errorf("fields."+f, "fields maps %q, which is no record field; want one of %s", f, strings.Join(recordFields, ", "))
		case col == "":
			errorf("fields."+f, "fields.%s: want a column name", f)
		case columns[col] != "":
			errorf("fields."+f, "column %q feeds both %s and %s", col, columns[col], f)
		default:
			columns[col] = f
		}
	}
	return cfg, diags
}

// shownPath is p for a reader: relative to the working directory when it
// lies under it, as before paths were relative to the rules file.
func shownPath(p string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel
	}
	return p
}
