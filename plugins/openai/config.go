package openai

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
	"github.com/nous-dev/nous/sdk/redact"
)

// Defaults for an agent configured by neither the rules nor the environment.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	DefaultModel   = "gpt-4o-mini"
	defaultTimeout = 120 * time.Second
	defaultRetries = 3
	// defaultContextChars bounds the rendered context records, so a large
	// retrieval cannot overflow the model's context window unnoticed.
	defaultContextChars = 60_000
)

// Structured output strategies.
const (
	FormatJSONSchema = "json_schema" // response_format json_schema, strict (falls back to json_object when refused)
	FormatJSONObject = "json_object" // response_format json_object, the schema in the system message
	FormatNone       = "none"        // no response_format; the schema in the system message
)

// Config is the openai agent's configuration. Unset fields come from the
// environment, then from the defaults.
type Config struct {
	BaseURL         string   `json:"base_url" want:"a URL string" doc:"OpenAI-compatible API root, e.g. http://localhost:11434/v1 (env NOUS_OPENAI_BASE_URL, OPENAI_BASE_URL)"`
	APIKey          string   `json:"api_key" config:"secret" doc:"bearer token (env NOUS_OPENAI_API_KEY, OPENAI_API_KEY); optional for local servers"`
	Model           string   `json:"model" doc:"model name (env NOUS_OPENAI_MODEL)"`
	Temperature     *float64 `json:"temperature,omitempty" min:"0" max:"2"`
	MaxTokens       int      `json:"max_tokens,omitempty" min:"1"`
	Stream          bool     `json:"stream" want:"a boolean" doc:"stream the answer as server-sent events"`
	Timeout         Duration `json:"timeout" want:"a duration like \"90s\" or a number of seconds" doc:"per call, retries included: \"90s\" or seconds"`
	MaxRetries      int      `json:"max_retries" min:"0" doc:"retries on 408, 409, 429 and 5xx"`
	ResponseFormat  string   `json:"response_format" enum:"json_schema,json_object,none"`
	MaxContextChars int      `json:"max_context_chars" min:"1" doc:"bound on the context records rendered into the prompt"`
	// MaxResponseBytes bounds a response body, streamed or not (default 64 MiB).
	MaxResponseBytes httpclient.BodyLimit `json:"max_response_bytes"`
}

// String describes the configuration with the API key hidden, so a
// configuration printed or logged by mistake does not leak it.
func (c Config) String() string {
	key := ""
	if c.APIKey != "" {
		key = redact.Mask
	}
	temp := "default"
	if c.Temperature != nil {
		temp = fmt.Sprint(*c.Temperature)
	}
	return fmt.Sprintf("openai.Config{base_url=%s api_key=%s model=%s temperature=%s max_tokens=%d stream=%t timeout=%s max_retries=%d response_format=%s max_context_chars=%d max_response_bytes=%d}",
		c.BaseURL, key, c.Model, temp, c.MaxTokens, c.Stream, time.Duration(c.Timeout), c.MaxRetries, c.ResponseFormat, c.MaxContextChars, c.MaxResponseBytes)
}

// GoString is String, for %#v.
func (c Config) GoString() string { return c.String() }

// LogValue is String, for log/slog.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// Duration is a time.Duration read from JSON as "30s" or as seconds.
type Duration time.Duration

// UnmarshalJSON accepts a Go duration string or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration like \"45s\" or \"2m\"", s)
		}
		*d = Duration(v)
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return fmt.Errorf("%s is neither a duration string nor a number of seconds", b)
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// ConfigSchema is the JSON Schema of a duration.
func (Duration) ConfigSchema() json.RawMessage {
	return json.RawMessage(`{"type":["string","number"]}`)
}

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// envConfig is the configuration the environment gives.
func envConfig(getenv func(string) string) Config {
	cfg := Config{
		BaseURL:          firstNonEmpty(getenv("NOUS_OPENAI_BASE_URL"), getenv("OPENAI_BASE_URL"), DefaultBaseURL),
		APIKey:           firstNonEmpty(getenv("NOUS_OPENAI_API_KEY"), getenv("OPENAI_API_KEY")),
		Model:            firstNonEmpty(getenv("NOUS_OPENAI_MODEL"), DefaultModel),
		Timeout:          Duration(defaultTimeout),
		MaxRetries:       defaultRetries,
		ResponseFormat:   FormatJSONSchema,
		MaxContextChars:  defaultContextChars,
		MaxResponseBytes: httpclient.DefaultMaxBody,
	}
	return cfg
}

// parseConfig decodes raw over base and reports every problem found.
func parseConfig(base Config, raw json.RawMessage) (Config, sdk.Diagnostics) {
	cfg := base
	diags, ok := config.Decode("openai", raw, &cfg)
	if !ok {
		return base, diags
	}
	diags = append(diags, httpclient.CheckMaxBody("openai", &cfg.MaxResponseBytes)...)
	return cfg, append(diags, validate(&cfg)...)
}

// validate checks values and normalises the base URL.
func validate(cfg *Config) sdk.Diagnostics {
	var diags sdk.Diagnostics
	errorAt := func(path, summary, detail string) {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: path, Summary: summary, Detail: detail})
	}
	cfg.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	u, err := url.Parse(cfg.BaseURL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		errorAt("base_url", "base_url must be an http or https URL", `e.g. "https://api.openai.com/v1" or "http://localhost:11434/v1"`)
	case cfg.APIKey == "" && strings.EqualFold(u.Hostname(), "api.openai.com"):
		errorAt("api_key", "no API key for api.openai.com", "set OPENAI_API_KEY or the agent's api_key; local servers such as Ollama need none")
	}
	if strings.TrimSpace(cfg.Model) == "" {
		errorAt("model", "model must not be empty", "e.g. \"gpt-4o-mini\", or \"llama3.1\" on Ollama")
	}
	if t := cfg.Temperature; t != nil && (*t < 0 || *t > 2) {
		errorAt("temperature", "temperature must be between 0 and 2", fmt.Sprintf("got %g", *t))
	}
	if cfg.MaxTokens < 0 {
		errorAt("max_tokens", "max_tokens must be positive", fmt.Sprintf("got %d", cfg.MaxTokens))
	}
	if cfg.Timeout < 0 {
		errorAt("timeout", "timeout must not be negative", time.Duration(cfg.Timeout).String())
	}
	if cfg.MaxRetries < 0 {
		errorAt("max_retries", "max_retries must not be negative", fmt.Sprintf("got %d", cfg.MaxRetries))
	}
	if cfg.MaxContextChars < 1 {
		errorAt("max_context_chars", "max_context_chars must be positive", fmt.Sprintf("got %d", cfg.MaxContextChars))
	}
	switch cfg.ResponseFormat {
	case FormatJSONSchema, FormatJSONObject, FormatNone:
	default:
		errorAt("response_format", `response_format must be "json_schema", "json_object" or "none"`, fmt.Sprintf("got %q", cfg.ResponseFormat))
	}
	return diags
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
