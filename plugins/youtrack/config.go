package youtrack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// Config is the youtrack source's configuration, the rules file's config map.
type Config struct {
	BaseURL  string   `json:"base_url"`
	Token    string   `json:"token"`
	Projects []string `json:"projects"`
}

// parseConfig decodes raw, fills gaps from YOUTRACK_URL / YOUTRACK_TOKEN
// and checks the result; every problem is a diagnostic naming its key.
func parseConfig(raw json.RawMessage, getenv func(string) string) (Config, sdk.Diagnostics) {
	var cfg Config
	var diags sdk.Diagnostics
	if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(raw, &keys); err != nil {
			return cfg, append(diags, errorDiag("", "youtrack config is not a JSON object", err.Error()))
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			var dst any
			switch k {
			case "base_url":
				dst = &cfg.BaseURL
			case "token":
				dst = &cfg.Token
			case "projects":
				dst = &cfg.Projects
			default:
				diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Path: k,
					Summary: fmt.Sprintf("youtrack: unknown config key %q", k), Detail: "known keys: base_url, projects, token"})
				continue
			}
			if err := json.Unmarshal(keys[k], dst); err != nil {
				want := "a string"
				if k == "projects" {
					want = "a list of project short names"
				}
				// Never echo the value: it may be a secret.
				diags = append(diags, errorDiag(k, fmt.Sprintf("youtrack: bad value for %q", k), "want "+want))
			}
		}
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = getenv("YOUTRACK_URL")
	}
	if cfg.Token == "" {
		cfg.Token = getenv("YOUTRACK_TOKEN")
	}
	if strings.TrimSpace(cfg.BaseURL) == "" {
		diags = append(diags, errorDiag("base_url", "youtrack: no base_url",
			`set config key "base_url" (e.g. https://example.youtrack.cloud) or the YOUTRACK_URL environment variable`))
	} else if _, _, err := normaliseBaseURL(cfg.BaseURL); err != nil {
		diags = append(diags, errorDiag("base_url", "youtrack: invalid base_url", err.Error()))
	}
	if strings.TrimSpace(cfg.Token) == "" {
		diags = append(diags, errorDiag("token", "youtrack: no token",
			`set config key "token" (a permanent token, perm:…) or the YOUTRACK_TOKEN environment variable`))
	}
	return cfg, diags
}

func errorDiag(path, summary, detail string) sdk.Diagnostic {
	return sdk.Diagnostic{Severity: sdk.SeverityError, Path: path, Summary: summary, Detail: detail}
}
