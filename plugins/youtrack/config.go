package youtrack

import (
	"encoding/json"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// Config is the youtrack source's configuration, the rules file's config map.
type Config struct {
	BaseURL  string   `json:"base_url" want:"a URL string" doc:"YouTrack URL (Cloud https://x.youtrack.cloud, Server https://host/youtrack); default YOUTRACK_URL"`
	Token    string   `json:"token" config:"secret" doc:"permanent token; default YOUTRACK_TOKEN"`
	Projects []string `json:"projects" want:"a list of project short names" doc:"default project short names"`
	// MaxResponseBytes bounds every response body (default 64 MiB).
	MaxResponseBytes httpclient.BodyLimit `json:"max_response_bytes"`
}

// parseConfig decodes raw, fills gaps from YOUTRACK_URL / YOUTRACK_TOKEN
// and checks the result; every problem is a diagnostic naming its key.
func parseConfig(raw json.RawMessage, getenv func(string) string) (Config, sdk.Diagnostics) {
	var cfg Config
	diags, ok := config.Decode("youtrack", raw, &cfg)
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
		diags = append(diags, config.Error("base_url", "youtrack: no base_url",
			`set config key "base_url" (e.g. https://example.youtrack.cloud) or the YOUTRACK_URL environment variable`))
	} else if _, _, err := normaliseBaseURL(cfg.BaseURL); err != nil {
		diags = append(diags, config.Error("base_url", "youtrack: invalid base_url", err.Error()))
	}
	if strings.TrimSpace(cfg.Token) == "" {
		diags = append(diags, config.Error("token", "youtrack: no token",
			`set config key "token" (a permanent token, perm:…) or the YOUTRACK_TOKEN environment variable`))
	}
	return cfg, diags
}
