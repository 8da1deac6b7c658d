package gitlab

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/sdk"
)

func TestConfigure(t *testing.T) {
	tests := []struct {
		name      string
		config    string
		env       map[string]string
		wantErrAt []string // paths of error diagnostics
		wantWarn  []string // paths of warnings
		check     func(t *testing.T, cfg Config)
	}{
		{
			name:   "full config",
			config: `{"base_url":"https://gitlab.example.com","token":"t","projects":["group/app",42],"auth":"oauth"}`,
			check: func(t *testing.T, cfg Config) {
				assert.Equal(t, "https://gitlab.example.com", cfg.BaseURL)
				assert.Equal(t, ProjectList{"group/app", "42"}, cfg.Projects)
				assert.Equal(t, AuthOAuth, cfg.Auth)
			},
		},
		{
			name:   "environment fallbacks and defaults",
			config: `{}`,
			env:    map[string]string{"GITLAB_URL": "https://git.corp.example/gitlab", "GITLAB_TOKEN": "from-env"},
			check: func(t *testing.T, cfg Config) {
				assert.Equal(t, "https://git.corp.example/gitlab", cfg.BaseURL)
				assert.Equal(t, "from-env", cfg.Token)
				assert.Equal(t, AuthPrivateToken, cfg.Auth)
			},
		},
		{
			name:   "config beats environment",
			config: `{"token":"from-config"}`,
			env:    map[string]string{"GITLAB_TOKEN": "from-env"},
			check: func(t *testing.T, cfg Config) {
				assert.Equal(t, "from-config", cfg.Token)
				assert.Equal(t, DefaultBaseURL, cfg.BaseURL)
			},
		},
		{name: "null config uses env", config: `null`, env: map[string]string{"GITLAB_TOKEN": "x"}},
		{name: "missing token", config: `{"base_url":"https://gitlab.com"}`, wantErrAt: []string{"token"}},
		{name: "blank token", config: `{"token":"   "}`, wantErrAt: []string{"token"}},
		{name: "url without scheme", config: `{"token":"t","base_url":"gitlab.example.com"}`, wantErrAt: []string{"base_url"}},
		{name: "url with query", config: `{"token":"t","base_url":"https://gitlab.example.com/?x=1"}`, wantErrAt: []string{"base_url"}},
		{name: "ftp url", config: `{"token":"t","base_url":"ftp://gitlab.example.com"}`, wantErrAt: []string{"base_url"}},
		{name: "unknown auth", config: `{"token":"t","auth":"basic"}`, wantErrAt: []string{"auth"}},
		{name: "project of wrong type", config: `{"token":"t","projects":[true]}`, wantErrAt: []string{"projects"}},
		{name: "fractional project id", config: `{"token":"t","projects":[4.5]}`, wantErrAt: []string{"projects"}},
		{name: "token of wrong type", config: `{"token":42}`, wantErrAt: []string{"token", "token"}},
		{name: "not an object", config: `[1,2]`, wantErrAt: []string{""}},
		{name: "unknown key is a warning", config: `{"token":"t","projcts":["a"]}`, wantWarn: []string{"projcts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := parseConfig(json.RawMessage(tt.config), func(k string) string { return tt.env[k] })
			var errs, warns []string
			for _, d := range diags {
				assert.NotEmpty(t, d.Summary)
				if d.Severity == sdk.SeverityError {
					errs = append(errs, d.Path)
				} else {
					warns = append(warns, d.Path)
				}
			}
			assert.Equal(t, tt.wantErrAt, errs, "%v", diags)
			assert.Equal(t, tt.wantWarn, warns, "%v", diags)
			if tt.check != nil {
				tt.check(t, cfg)
			}
		})
	}
}

func TestConfigureNeverEchoesCredentials(t *testing.T) {
	s := New(WithEnv(func(string) string { return "" }))
	diags, err := s.Configure(context.Background(), json.RawMessage(`{"token":"t","base_url":"https://user:hunter2@gitlab.example.com"}`))
	require.NoError(t, err)
	require.True(t, diags.HasErrors())
	for _, d := range diags {
		assert.NotContains(t, d.Summary+d.Detail, "hunter2")
	}
}

func TestConfigureErrorLeavesSourceUnconfigured(t *testing.T) {
	s := New(WithEnv(func(string) string { return "" }))
	diags, err := s.Configure(context.Background(), json.RawMessage(`{}`))
	require.NoError(t, err)
	require.True(t, diags.HasErrors())
	err = s.Fetch(context.Background(), sdk.FetchRequest{Filters: project("a/b")}, func(sdk.Record) error { return nil })
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
}

func TestDescribe(t *testing.T) {
	info, err := New().Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "gitlab", info.Name)
	assert.ElementsMatch(t, []string{"commit", "issue", "merge_request", "pull_request", "pipeline", "release"}, info.Kinds)
	assert.Contains(t, info.Filters, "projects")
	assert.True(t, json.Valid(info.ConfigSchema))
}

// FuzzParseConfig feeds arbitrary JSON to the config parser: it must never
// panic, and a config without error diagnostics always has a token and a
// valid base URL.
func FuzzParseConfig(f *testing.F) {
	f.Add(`{"base_url":"https://gitlab.com","token":"t","projects":["a/b",1],"auth":"oauth"}`)
	f.Add(`{"projects":"a/b"}`)
	f.Add(`{"projects":[1e99]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, s string) {
		cfg, diags := parseConfig(json.RawMessage(s), func(string) string { return "" })
		if diags.HasErrors() {
			return
		}
		if cfg.Token == "" || httpclient.CheckBaseURL(cfg.BaseURL, "") != nil {
			t.Fatalf("accepted %s as %+v", s, cfg)
		}
	})
}

func TestConfigureLeavesTheCallersHTTPClientAlone(t *testing.T) {
	hc := &http.Client{}
	s := New(WithEnv(func(string) string { return "" }), WithHTTPClient(hc))
	for range 2 {
		diags, err := s.Configure(context.Background(), json.RawMessage(`{"token":"t"}`))
		require.NoError(t, err)
		require.False(t, diags.HasErrors())
	}
	assert.Nil(t, hc.Transport, "the interceptor wraps a copy, not the caller's client")
}
