package git

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// config is the git source's configuration, the rules file's config map.
type config struct {
	Path      string `json:"path"`       // a directory inside the repository; default "."
	Repo      string `json:"repo"`       // alias of path
	Ref       string `json:"ref"`        // branch, tag or revision walked by default; default HEAD
	Source    string `json:"source"`     // Record.Source; default "git"
	Stats     *bool  `json:"stats"`      // files/additions/deletions per commit; default true
	CommitURL string `json:"commit_url"` // web URL template with {sha}; default derived from origin
}

// configSchema is the JSON Schema of config, shown by `nous plugins`.
const configSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "directory inside the repository; .git is found upward", "default": "."},
    "repo": {"type": "string", "description": "alias of path"},
    "ref": {"type": "string", "description": "branch, tag or revision to walk", "default": "HEAD"},
    "source": {"type": "string", "description": "record source name", "default": "git"},
    "stats": {"type": "boolean", "description": "compute files changed, additions and deletions", "default": true},
    "commit_url": {"type": "string", "description": "commit web URL template with {sha}"}
  },
  "additionalProperties": false
}`

var configKeys = map[string]bool{"path": true, "repo": true, "ref": true, "source": true, "stats": true, "commit_url": true}

// decodeConfig decodes raw and fills defaults. Unknown keys are warnings;
// a value of the wrong type is an error naming its key.
func decodeConfig(raw json.RawMessage) (config, sdk.Diagnostics) {
	cfg := config{}
	var diags sdk.Diagnostics
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &keys); err != nil {
			return cfg, sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "git config is not a JSON object", Detail: err.Error()}}
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if !configKeys[k] {
				diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Path: k,
					Summary: fmt.Sprintf("git: unknown config key %q (known: path, repo, ref, source, stats, commit_url)", k)})
				continue
			}
			if err := decodeKey(&cfg, k, keys[k]); err != nil {
				diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: k,
					Summary: fmt.Sprintf("git: config %s: %v", k, err)})
			}
		}
	}
	switch {
	case cfg.Path != "" && cfg.Repo != "" && cfg.Path != cfg.Repo:
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: "repo",
			Summary: fmt.Sprintf("git: config sets both path %q and repo %q; use one", cfg.Path, cfg.Repo)})
	case cfg.Path == "":
		cfg.Path = cfg.Repo
	}
	if cfg.Path == "" {
		cfg.Path = "."
	}
	if cfg.Ref == "" {
		cfg.Ref = "HEAD"
	}
	if cfg.Source == "" {
		cfg.Source = "git"
	}
	if cfg.Stats == nil {
		yes := true
		cfg.Stats = &yes
	}
	if cfg.CommitURL != "" && !strings.Contains(cfg.CommitURL, "{sha}") {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: "commit_url",
			Summary: fmt.Sprintf("git: commit_url %q has no {sha} placeholder", cfg.CommitURL)})
	}
	return cfg, diags
}

// decodeKey decodes one known key into cfg.
func decodeKey(cfg *config, key string, value json.RawMessage) error {
	var target any
	switch key {
	case "path":
		target = &cfg.Path
	case "repo":
		target = &cfg.Repo
	case "ref":
		target = &cfg.Ref
	case "source":
		target = &cfg.Source
	case "stats":
		target = &cfg.Stats
	case "commit_url":
		target = &cfg.CommitURL
	}
	if err := json.Unmarshal(value, target); err != nil {
		want := "a string"
		if key == "stats" {
			want = "true or false"
		}
		return fmt.Errorf("want %s, got %s", want, value)
	}
	return nil
}
