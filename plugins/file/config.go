package file

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/pluginconfig"
	"github.com/nous-dev/nous/sdk"
)

// config is the file source's configuration, the rules file's config map.
type config struct {
	Path   string            `json:"path"`   // a file, a glob, or a directory
	Format string            `json:"format"` // json, jsonl or csv; default from each file's extension
	Kind   string            `json:"kind"`   // Record.Kind when a row has none; default "document"
	Source string            `json:"source"` // Record.Source when a row has none; default "file"
	Fields map[string]string `json:"fields"` // record field → column name, e.g. {title = "summary"}

	shown string // Path as a reader sees it, see shownPath
}

// configSchema is the JSON Schema of config, shown by `nous plugins`.
const configSchema = `{
  "type": "object",
  "required": ["path"],
  "properties": {
    "path": {"type": "string", "description": "a file, a glob such as data/*.jsonl, or a directory"},
    "format": {"enum": ["json", "jsonl", "csv"], "description": "default: from each file's extension"},
    "kind": {"type": "string", "default": "document"},
    "source": {"type": "string", "default": "file", "description": "record source name, looked up in the tier table"},
    "fields": {"type": "object", "additionalProperties": {"type": "string"}, "description": "record field → column name"}
  },
  "additionalProperties": false
}`

// decodeConfig decodes raw and fills defaults. Unknown keys are warnings;
// wrong types, unknown formats and unknown mapped fields are errors.
func decodeConfig(raw json.RawMessage) (config, sdk.Diagnostics) {
	var cfg config
	diags, ok := pluginconfig.Decode("file", raw,
		pluginconfig.Key{Name: "path", Into: &cfg.Path, Want: "a string"},
		pluginconfig.Key{Name: "format", Into: &cfg.Format, Want: "a string"},
		pluginconfig.Key{Name: "kind", Into: &cfg.Kind, Want: "a string"},
		pluginconfig.Key{Name: "source", Into: &cfg.Source, Want: "a string"},
		pluginconfig.Key{Name: "fields", Into: &cfg.Fields, Want: "a map of record field to column name"},
	)
	if !ok {
		return cfg, diags
	}
	errorf := func(path, format string, args ...any) {
		diags = append(diags, pluginconfig.Error(path, "file: "+fmt.Sprintf(format, args...), ""))
	}
	if strings.TrimSpace(cfg.Path) == "" && !diags.HasErrors() {
		errorf("path", "config needs path (a file, glob or directory)")
	}
	cfg.Format = strings.ToLower(strings.TrimSpace(cfg.Format))
	switch cfg.Format {
	case "", FormatJSON, FormatJSONL, FormatCSV:
	case "ndjson":
		cfg.Format = FormatJSONL
	default:
		errorf("format", "format %q: want json, jsonl or csv", cfg.Format)
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
	if cfg.Kind == "" {
		cfg.Kind = sdk.KindDocument
	}
	if cfg.Source == "" {
		cfg.Source = "file"
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
