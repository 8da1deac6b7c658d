package github

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// DefaultBaseURL is the public API, used when neither the config nor
// GITHUB_API_URL names another.
const DefaultBaseURL = "https://api.github.com"

// Config is the github source's configuration, the rules file's config map.
type Config struct {
	Repo    string `json:"repo" want:"\"owner/name\"" doc:"default repository, owner/name"`
	BaseURL string `json:"base_url" want:"a URL string" doc:"API URL; default GITHUB_API_URL, then https://api.github.com; Enterprise: https://host (or https://host/api/v3)"`
	Token   string `json:"token" config:"secret" doc:"token; default GITHUB_TOKEN, then GH_TOKEN; without one, 60 requests an hour"`
	// MaxResponseBytes bounds every response body (default 64 MiB).
	MaxResponseBytes httpclient.BodyLimit `json:"max_response_bytes"`
}

// parseConfig decodes raw, fills gaps from the environment and checks the
// result; cfg is usable only when the diagnostics hold no error.
func parseConfig(raw json.RawMessage, getenv func(string) string) (Config, sdk.Diagnostics) {
	var cfg Config
	diags, ok := config.Decode("github", raw, &cfg)
	if !ok {
		return cfg, diags
	}
	cfg.BaseURL = firstNonEmpty(cfg.BaseURL, getenv("GITHUB_API_URL"), DefaultBaseURL)
	cfg.Token = strings.TrimSpace(firstNonEmpty(cfg.Token, getenv("GITHUB_TOKEN"), getenv("GH_TOKEN")))
	diags = append(diags, httpclient.CheckMaxBody("github", &cfg.MaxResponseBytes)...)
	if err := httpclient.CheckBaseURL(cfg.BaseURL, DefaultBaseURL); err != nil {
		diags = append(diags, config.Error("base_url", "github: invalid base_url", err.Error()))
	}
	if cfg.Repo != "" {
		if _, _, err := splitRepo(cfg.Repo); err != nil {
			diags = append(diags, config.Error("repo", "github: invalid repo", err.Error()))
		}
	}
	if cfg.Token == "" {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Path: "token", Summary: "github: no token: unauthenticated, 60 requests an hour",
			Detail: `set config key "token" or GITHUB_TOKEN (or GH_TOKEN) for 5,000 requests an hour and private repositories`})
	}
	return cfg, diags
}

// splitRepo splits "owner/name" (a trailing ".git" dropped).
func splitRepo(repo string) (owner, name string, err error) {
	owner, name, ok := strings.Cut(strings.TrimSuffix(strings.TrimSpace(repo), ".git"), "/")
	if !ok || owner == "" || name == "" || strings.ContainsAny(name, "/?#") || strings.ContainsAny(owner, "?#") {
		return "", "", fmt.Errorf("%q: want owner/name, e.g. golang/go", repo)
	}
	return owner, name, nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
