package git

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/pluginconfig"
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

// decodeConfig decodes raw and fills defaults. Unknown keys are warnings;
// a value of the wrong type is an error naming its key. A relative path is
// relative to dir, the rules file's directory (sdk.ConfigDir); without a
// path the repository is the working directory's.
func decodeConfig(raw json.RawMessage, dir string) (config, sdk.Diagnostics) {
	cfg := config{}
	diags, ok := pluginconfig.Decode("git", raw,
		pluginconfig.Key{Name: "path", Into: &cfg.Path, Want: "a string"},
		pluginconfig.Key{Name: "repo", Into: &cfg.Repo, Want: "a string"},
		pluginconfig.Key{Name: "ref", Into: &cfg.Ref, Want: "a string"},
		pluginconfig.Key{Name: "source", Into: &cfg.Source, Want: "a string"},
		pluginconfig.Key{Name: "stats", Into: &cfg.Stats, Want: "true or false"},
		pluginconfig.Key{Name: "commit_url", Into: &cfg.CommitURL, Want: "a string"},
	)
	if !ok {
		return cfg, diags
	}
	switch {
	case cfg.Path != "" && cfg.Repo != "" && cfg.Path != cfg.Repo:
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: "repo",
			Summary: fmt.Sprintf("git: config sets both path %q and repo %q; use one", cfg.Path, cfg.Repo)})
	case cfg.Path == "":
		cfg.Path = cfg.Repo
	}
	cfg.Path = pluginconfig.RelativeTo(dir, cfg.Path)
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
