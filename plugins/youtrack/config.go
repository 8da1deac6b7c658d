package youtrack

import (
	"encoding/json"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/pluginconfig"
	"github.com/nous-dev/nous/sdk"
)

// Config is the youtrack source's configuration, the rules file's config map.
type Config struct {
	BaseURL  string   `json:"base_url"`
	Token    string   `json:"token"`
	Projects []string `json:"projects"`
	// MaxResponseBytes bounds every response body (default 64 MiB).
	MaxResponseBytes int64 `json:"max_response_bytes"`
}

// parseConfig decodes raw, fills gaps from YOUTRACK_URL / YOUTRACK_TOKEN
// and checks the result; every problem is a diagnostic naming its key.
func parseConfig(raw json.RawMessage, getenv func(string) string) (Config, sdk.Diagnostics) {
	var cfg Config
	diags, ok := pluginconfig.Decode("youtrack", raw,
		pluginconfig.Key{Name: "base_url", Into: &cfg.BaseURL, Want: "a URL string"},
		pluginconfig.Key{Name: "token", Into: &cfg.Token, Want: "a string", Secret: true},
		pluginconfig.Key{Name: "projects", Into: &cfg.Projects, Want: "a list of project short names"},
		httpclient.MaxBodyKey(&cfg.MaxResponseBytes),
	)
	if !ok {
		return cfg, diags
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = getenv("YOUTRACK_URL")
	}
	if cfg.Token == "" {
		cfg.Token = getenv("YOUTRACK_TOKEN")
	}
	diags = append(diags, httpclient.CheckMaxBody("youtrack", &cfg.MaxResponseBytes)...)
	if strings.TrimSpace(cfg.BaseURL) == "" {
		diags = append(diags, pluginconfig.Error("base_url", "youtrack: no base_url",
			`set config key "base_url" (e.g. https://example.youtrack.cloud) or the YOUTRACK_URL environment variable`))
	} else if _, _, err := normaliseBaseURL(cfg.BaseURL); err != nil {
		diags = append(diags, pluginconfig.Error("base_url", "youtrack: invalid base_url", err.Error()))
	}
	if strings.TrimSpace(cfg.Token) == "" {
		diags = append(diags, pluginconfig.Error("token", "youtrack: no token",
			`set config key "token" (a permanent token, perm:…) or the YOUTRACK_TOKEN environment variable`))
	}
	return cfg, diags
}
