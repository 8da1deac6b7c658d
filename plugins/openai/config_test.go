package openai

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnvironment(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{"defaults", map[string]string{}, Config{BaseURL: DefaultBaseURL, Model: DefaultModel}},
		{"OpenAI variables", map[string]string{"OPENAI_API_KEY": "k1", "OPENAI_BASE_URL": "http://localhost:11434/v1/"},
			Config{BaseURL: "http://localhost:11434/v1", APIKey: "k1", Model: DefaultModel}},
		{"NOUS variables win", map[string]string{"OPENAI_API_KEY": "k1", "NOUS_OPENAI_API_KEY": "k2", "OPENAI_BASE_URL": "http://a/v1",
			"NOUS_OPENAI_BASE_URL": "http://b/v1", "NOUS_OPENAI_MODEL": "llama3.1"},
			Config{BaseURL: "http://b/v1", APIKey: "k2", Model: "llama3.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New(WithEnv(func(k string) string { return tt.env[k] }))
			got := *a.cfg.Load()
			assert.Equal(t, tt.want.BaseURL, got.BaseURL)
			assert.Equal(t, tt.want.APIKey, got.APIKey)
			assert.Equal(t, tt.want.Model, got.Model)
			assert.Equal(t, Duration(120*time.Second), got.Timeout)
			assert.Equal(t, 3, got.MaxRetries)
			assert.Equal(t, FormatJSONSchema, got.ResponseFormat)
		})
	}
}

func TestConfigure(t *testing.T) {
	tests := []struct {
		name       string
		config     string
		wantErrors []string // paths of error diagnostics
		wantWarn   []string // paths of warnings
		check      func(t *testing.T, c Config)
	}{
		{name: "ollama", config: `{"base_url":"http://localhost:11434/v1","model":"llama3.1","stream":true,"timeout":"90s","temperature":0}`,
			check: func(t *testing.T, c Config) {
				assert.Equal(t, "http://localhost:11434/v1", c.BaseURL)
				assert.Equal(t, "llama3.1", c.Model)
				assert.True(t, c.Stream)
				assert.Equal(t, Duration(90*time.Second), c.Timeout)
				require.NotNil(t, c.Temperature)
				assert.Zero(t, *c.Temperature)
			}},
		{name: "timeout in seconds", config: `{"base_url":"http://vllm:8000/v1","timeout":2.5,"max_tokens":512,"max_retries":0}`,
			check: func(t *testing.T, c Config) {
				assert.Equal(t, Duration(2500*time.Millisecond), c.Timeout)
				assert.Equal(t, 512, c.MaxTokens)
				assert.Zero(t, c.MaxRetries)
			}},
		{name: "openai.com without a key", config: `{"base_url":"https://api.openai.com/v1"}`, wantErrors: []string{"api_key"}},
		{name: "bad values", config: `{"base_url":"localhost:11434","model":" ","temperature":3,"max_tokens":-1,"max_retries":-2,"max_context_chars":0,"response_format":"xml","timeout":"soon"}`,
			wantErrors: []string{"timeout", "base_url", "model", "temperature", "max_tokens", "max_retries", "max_context_chars", "response_format"}},
		{name: "wrong types", config: `{"stream":"yes","model":7}`, wantErrors: []string{"model", "stream", "api_key"}},
		{name: "unknown key", config: `{"base_url":"http://x/v1","organisation":"acme"}`, wantWarn: []string{"organisation"}},
		{name: "not an object", config: `"gpt-4o"`, wantErrors: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New(WithEnv(func(string) string { return "" }))
			before := *a.cfg.Load()
			diags, err := a.Configure(context.Background(), json.RawMessage(tt.config))
			require.NoError(t, err)
			var errs, warns []string
			for _, d := range diags {
				assert.NotEmpty(t, d.Summary)
				if d.Severity == 2 {
					errs = append(errs, d.Path)
				} else {
					warns = append(warns, d.Path)
				}
			}
			assert.Equal(t, tt.wantErrors, errs, "%+v", diags)
			assert.Equal(t, tt.wantWarn, warns)
			if len(tt.wantErrors) > 0 {
				assert.Equal(t, before, *a.cfg.Load(), "a configuration with errors is not applied")
			}
			if tt.check != nil {
				tt.check(t, *a.cfg.Load())
			}
		})
	}
}

func TestConfigureOverridesEnvironment(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "env-key", "NOUS_OPENAI_MODEL": "env-model"}
	a := New(WithEnv(func(k string) string { return env[k] }))
	_, err := a.Configure(context.Background(), json.RawMessage(`{"model":"rules-model"}`))
	require.NoError(t, err)
	got := *a.cfg.Load()
	assert.Equal(t, "rules-model", got.Model)
	assert.Equal(t, "env-key", got.APIKey, "what the rules leave unset comes from the environment")

	_, err = a.Configure(context.Background(), json.RawMessage(`{"api_key":"","base_url":"","model":""}`))
	require.NoError(t, err)
	got = *a.cfg.Load()
	assert.Equal(t, "env-key", got.APIKey, `env("UNSET") gives "", which keeps the environment's value`)
	assert.Equal(t, "env-model", got.Model)
	assert.Equal(t, DefaultBaseURL, got.BaseURL)
}

func FuzzConfigure(f *testing.F) {
	f.Add(`{"base_url":"http://localhost:11434/v1","model":"llama3.1","stream":true,"timeout":"90s"}`)
	f.Add(`{"timeout":1e308,"temperature":-0,"max_tokens":1e3}`)
	f.Add(`{"api_key":{"nested":"sk-x"},"base_url":"://"}`)
	f.Add(`null`)
	f.Add(`[`)
	f.Fuzz(func(t *testing.T, config string) {
		a := New(WithEnv(func(string) string { return "" }))
		diags, err := a.Configure(context.Background(), json.RawMessage(config))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diags {
			if d.Summary == "" {
				t.Fatalf("diagnostic without a summary: %+v", d)
			}
		}
		if !diags.HasErrors() {
			applied := *a.cfg.Load()
			if ds := validate(&applied); ds.HasErrors() {
				t.Fatalf("an applied configuration does not validate: %+v", ds)
			}
		}
	})
}
