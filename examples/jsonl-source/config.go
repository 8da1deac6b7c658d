package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/nous-dev/nous/sdk"
)

// Config is the plugin's configuration, the `config = { … }` of its source
// block in the rules file.
type Config struct {
	Path      string `json:"path"`       // the JSON-lines file, relative to where nous runs
	TimeField string `json:"time_field"` // the key holding each record's time; default "time"
	Source    string `json:"source"`     // the records' source (for the tier table); default "jsonl"
	Tier      int    `json:"tier"`       // the records' tier; 0 leaves it to the tier table
}

// configSchema is the JSON Schema of Config, reported by Describe.
const configSchema = `{
  "type": "object",
  "required": ["path"],
  "properties": {
    "path":       {"type": "string", "description": "JSON-lines file to serve"},
    "time_field": {"type": "string", "default": "time"},
    "source":     {"type": "string", "default": "jsonl"},
    "tier":       {"type": "integer", "minimum": 0}
  },
  "additionalProperties": false
}`

// parseConfig decodes raw into a Config with defaults applied. Every problem
// is a diagnostic naming the key, so lint can show them all at once.
func parseConfig(raw json.RawMessage) (Config, sdk.Diagnostics) {
	cfg := Config{TimeField: "time", Source: "jsonl"}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, sdk.Diagnostics{{
			Severity: sdk.SeverityError,
			Summary:  "Invalid configuration",
			Detail:   fmt.Sprintf("%v (want an object with path, time_field, source, tier)", err),
		}}
	}
	var diags sdk.Diagnostics
	switch {
	case cfg.Path == "":
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Missing path", Detail: "config.path names the JSON-lines file to serve", Path: "path"})
	default:
		if info, err := os.Stat(cfg.Path); err != nil {
			diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Cannot read the file", Detail: err.Error(), Path: "path"})
		} else if info.IsDir() {
			diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Path is a directory", Detail: cfg.Path + " is a directory; want a JSON-lines file", Path: "path"})
		}
	}
	if cfg.TimeField == "" {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Empty time_field", Detail: "omit time_field for the default \"time\"", Path: "time_field"})
	}
	if cfg.Tier < 0 {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "Negative tier", Detail: fmt.Sprintf("tier is %d; want 0 (unknown) or more", cfg.Tier), Path: "tier"})
	}
	return cfg, diags
}
