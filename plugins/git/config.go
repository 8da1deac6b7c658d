package git

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nous-dev/nous/sdk"
	sdkconfig "github.com/nous-dev/nous/sdk/config"
)

// config is the git source's configuration, the rules file's config map.
type config struct {
	Path      string `json:"path" doc:"directory inside the repository; .git is found upward; default: the working directory"`
	Repo      string `json:"repo" doc:"alias of path"`
	Ref       string `json:"ref" default:"HEAD" doc:"branch, tag or revision to walk"`
	Source    string `json:"source" default:"git" doc:"record source name"`
	Stats     *bool  `json:"stats" default:"true" doc:"compute files changed, additions and deletions"`
	CommitURL string `json:"commit_url" doc:"commit web URL template with {sha}"`
}

// decodeConfig decodes raw and fills defaults. Unknown keys are warnings;
// a value of the wrong type is an error naming its key. A relative path is
// relative to dir, the rules file's directory (sdk.ConfigDir); without a
// path the repository is the working directory's.
func decodeConfig(raw json.RawMessage, dir string) (config, sdk.Diagnostics) {
	var cfg config
	diags, ok := sdkconfig.Decode("git", raw, &cfg)
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
	cfg.Path = sdkconfig.RelativeTo(dir, cfg.Path)
	if cfg.Path == "" {
		cfg.Path = "."
	}
	if cfg.CommitURL != "" && !strings.Contains(cfg.CommitURL, "{sha}") {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: "commit_url",
			Summary: fmt.Sprintf("git: commit_url %q has no {sha} placeholder", cfg.CommitURL)})
	}
	return cfg, diags
}
