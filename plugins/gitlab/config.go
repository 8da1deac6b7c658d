package gitlab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// DefaultBaseURL is used when neither the config nor GITLAB_URL names an instance.
const DefaultBaseURL = "https://gitlab.com"

// Auth modes: how the token is sent.
const (
	AuthPrivateToken = "private-token" // PRIVATE-TOKEN header: personal, project and group access tokens
	AuthOAuth        = "oauth"         // Authorization: Bearer: OAuth2 access tokens
)

// Config is the gitlab source's configuration, the rules file's config map.
type Config struct {
	BaseURL  string      `json:"base_url" want:"a URL string" doc:"GitLab instance URL; default GITLAB_URL, then https://gitlab.com"`
	Token    string      `json:"token" config:"secret" doc:"access token; default GITLAB_TOKEN"`
	Projects ProjectList `json:"projects" doc:"default projects: group/sub/project paths or numeric IDs"`
	Auth     string      `json:"auth" want:"\"private-token\" or \"oauth\"" enum:"private-token,oauth" doc:"how the token is sent; default private-token"`
	// MaxResponseBytes bounds every response body (default 64 MiB).
	MaxResponseBytes httpclient.BodyLimit `json:"max_response_bytes"`
}

// ProjectList is a list of projects given as `group/sub/project` paths or
// numeric IDs; JSON numbers and strings are both accepted.
type ProjectList []string

// ConfigSchema is the JSON Schema of a project list.
func (ProjectList) ConfigSchema() json.RawMessage {
	return json.RawMessage(`{"type":"array","items":{"type":["string","integer"]}}`)
}

// UnmarshalJSON accepts a list of strings and numbers, or a single one.
func (p *ProjectList) UnmarshalJSON(data []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		raw = []json.RawMessage{data}
	}
	out := make(ProjectList, 0, len(raw))
	for i, r := range raw {
		var s string
		if err := json.Unmarshal(r, &s); err == nil {
			out = append(out, s)
			continue
		}
		var n json.Number
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.UseNumber()
		if err := dec.Decode(&n); err != nil {
			return fmt.Errorf("projects[%d]: want a project path or numeric ID, got %s", i, r)
		}
		if _, err := strconv.ParseInt(n.String(), 10, 64); err != nil {
			return fmt.Errorf("projects[%d]: want an integer project ID, got %s", i, n)
		}
		out = append(out, n.String())
	}
	*p = out
	return nil
}

// parseConfig decodes raw, fills gaps from the environment and checks the
// result. Every problem is a diagnostic naming its key; cfg is usable only
// when the diagnostics hold no error.
func parseConfig(raw json.RawMessage, getenv func(string) string) (Config, sdk.Diagnostics) {
	var cfg Config
	diags, ok := config.Decode("gitlab", raw, &cfg)
	if !ok {
		return cfg, diags
	}

	if cfg.BaseURL == "" {
		cfg.BaseURL = getenv("GITLAB_URL")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if cfg.Token == "" {
		cfg.Token = getenv("GITLAB_TOKEN")
	}
	if cfg.Auth == "" {
		cfg.Auth = AuthPrivateToken
	}
	diags = append(diags, httpclient.CheckMaxBody("gitlab", &cfg.MaxResponseBytes)...)

	if err := httpclient.CheckBaseURL(cfg.BaseURL, "https://gitlab.example.com"); err != nil {
		diags = append(diags, config.Error("base_url", "gitlab: invalid base_url", err.Error()))
	}
	if strings.TrimSpace(cfg.Token) == "" {
		diags = append(diags, config.Error("token", "gitlab: no token",
			`set config key "token" (e.g. token = env("GITLAB_TOKEN")) or the GITLAB_TOKEN environment variable`))
	}
	if cfg.Auth != AuthPrivateToken && cfg.Auth != AuthOAuth {
		diags = append(diags, config.Error("auth", fmt.Sprintf("gitlab: unknown auth %q", cfg.Auth),
			`want "private-token" (default) or "oauth"`))
	}
	for i, p := range cfg.Projects {
		if strings.TrimSpace(p) == "" {
			diags = append(diags, config.Error("projects", fmt.Sprintf("gitlab: projects[%d] is empty", i), "want a `group/project` path or a numeric ID"))
		}
	}
	return cfg, diags
}
