// Package openai is an agent for any OpenAI-compatible chat-completions
// endpoint: OpenAI itself, or a local server such as Ollama or vLLM. It asks
// for JSON-schema structured output (falling back to json_object where the
// server refuses it), can stream, retries 429 and 5xx with backoff honouring
// Retry-After, reports token usage, and never lets the API key out.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
	"github.com/nous-dev/nous/sdk/redact"
)

// Version is the openai agent's version.
const Version = "1.0.0"

// Agent is the OpenAI-compatible agent. It is safe for concurrent use.
type Agent struct {
	custom *http.Client // WithHTTPClient's, hardened for each configuration
	log    *slog.Logger
	base   Config // the configuration the environment gives
	cfg    atomic.Pointer[Config]
	// client is httpclient's hardened client for cfg's body limit,
	// replaced with cfg; a call that sees a new cfg with the old
	// client only gets the old bounds.
	client atomic.Pointer[http.Client]
	// refused counts the response formats the server has refused, in the
	// order json_schema, json_object, so later calls do not pay for the
	// refusal again.
	refused atomic.Int32

	// sleep, now and rand drive the retry waits; tests replace them.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time
	rand  func() float64
}

// Option customises an Agent.
type Option func(*Agent)

// WithEnv reads the environment through getenv instead of os.Getenv.
func WithEnv(getenv func(string) string) Option {
	return func(a *Agent) { a.base = envConfig(getenv) }
}

// WithHTTPClient sends requests through a copy of c under httpclient's
// redirect policy, timeouts and body limit (its Timeout should be zero:
// the agent bounds each call with the context and the configured timeout).
func WithHTTPClient(c *http.Client) Option {
	return func(a *Agent) { a.custom = c }
}

// WithLogger logs retries to l instead of slog.Default(). Nothing logged
// carries the API key.
func WithLogger(l *slog.Logger) Option {
	return func(a *Agent) { a.log = l }
}

// New returns an agent configured from the environment (NOUS_OPENAI_BASE_URL
// or OPENAI_BASE_URL, NOUS_OPENAI_API_KEY or OPENAI_API_KEY, NOUS_OPENAI_MODEL).
func New(opts ...Option) *Agent {
	a := &Agent{
		log:   slog.Default(),
		base:  envConfig(os.Getenv),
		sleep: retry.Sleep,
		now:   time.Now,
		rand:  rand.Float64,
	}
	for _, opt := range opts {
		opt(a)
	}
	cfg := a.base
	validate(&cfg)
	a.apply(cfg)
	return a
}

// apply makes cfg the configuration, with a client bounded to match.
func (a *Agent) apply(cfg Config) {
	a.client.Store(a.httpClient(cfg))
	a.cfg.Store(&cfg)
}

// phaseBound bounds the wait for the response headers and for each part of
// the body. The call's own timeout (default 120s) is the tighter bound and
// ends the call first; this one holds when timeout = 0, so a server that
// accepts and never answers still cannot hold a run forever. It is far
// above httpclient's defaults because a completion that is not streamed
// sends its headers only once the whole answer is generated.
const phaseBound = 10 * time.Minute

// httpClient is the hardened client for cfg's body limit.
func (a *Agent) httpClient(cfg Config) *http.Client {
	return httpclient.Harden(a.custom, httpclient.Options{
		ResponseHeader: phaseBound,
		Idle:           phaseBound,
		MaxBody:        int64(cfg.MaxResponseBytes),
		MaxBodyKey:     httpclient.MaxBodyConfigKey,
	})
}

// Describe names the agent, its roles and its model.
func (a *Agent) Describe(context.Context) (sdk.AgentInfo, error) {
	return sdk.AgentInfo{
		Name:         "openai",
		Version:      Version,
		SDKVersion:   sdk.Version,
		Roles:        []string{sdk.RoleAnalyst, sdk.RoleClarification, sdk.RoleCritic, sdk.RoleValidator, sdk.RoleWriter},
		Models:       []string{a.cfg.Load().Model},
		ConfigSchema: config.Schema[Config](),
	}, nil
}

// Configure applies the rules' agent config over the environment's. A
// configuration with errors is reported and not applied.
func (a *Agent) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := parseConfig(a.base, raw)
	if !diags.HasErrors() {
		a.apply(cfg)
		a.refused.Store(0)
	}
	return diags, nil
}

// Invoke runs one role as one chat completion. The output is the model's
// answer as it came: JSON, or almost-JSON for the host's repair routine.
func (a *Agent) Invoke(ctx context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	cfg := *a.cfg.Load()
	red := cfg.redactor()
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(cfg.Timeout))
		defer cancel()
	}
	format := a.format(cfg, req)
	c, err := a.complete(ctx, cfg, req, format)
	// A server that rejects the response format gets the next weaker one:
	// json_schema → json_object (schema in the prompt) → none.
	for err != nil && format != FormatNone && formatRejected(err) {
		a.refuse(format)
		format = a.format(cfg, req)
		c, err = a.complete(ctx, cfg, req, format)
	}
	if err != nil {
		return sdk.InvokeResponse{}, a.describeFailure(ctx, red, cfg, err)
	}
	out, err := output(red, c)
	if err != nil {
		return sdk.InvokeResponse{}, err
	}
	model := c.model
	if model == "" {
		model = cfg.Model
	}
	return sdk.InvokeResponse{Output: out, Usage: sdk.Usage{
		PromptTokens: c.usage.PromptTokens, CompletionTokens: c.usage.CompletionTokens, Model: model,
	}}, nil
}

// formats are the response formats, strongest first.
var formats = []string{FormatJSONSchema, FormatJSONObject, FormatNone}

// format is the strongest response format the configuration asks for, the
// request can use (json_schema needs a schema) and the server has not refused.
func (a *Agent) format(cfg Config, req sdk.InvokeRequest) string {
	rank := max(int32(slices.Index(formats, cfg.ResponseFormat)), a.refused.Load())
	if rank == 0 && len(req.Schema) == 0 {
		rank = 1
	}
	return formats[min(int(rank), len(formats)-1)]
}

// refuse records that the server refused format; the record only grows.
func (a *Agent) refuse(format string) {
	next := int32(slices.Index(formats, format)) + 1
	for {
		old := a.refused.Load()
		if old >= next || a.refused.CompareAndSwap(old, next) {
			return
		}
	}
}

func formatRejected(err error) bool {
	var se *statusError
	return asStatus(err, &se) && se.schemaRejected()
}

// output turns a completion into the role's JSON output, or a clear error
// for a refusal, a filtered answer, or one cut off before its JSON ended.
func output(red *redact.Redactor, c completion) (json.RawMessage, error) {
	content := bytes.TrimSpace([]byte(c.content))
	switch {
	case c.refusal != "":
		return nil, fail(red, sdk.KindBadRequest, nil, "openai: the model refused: %s", text.Clip(c.refusal, 300))
	case c.finishReason == "content_filter":
		return nil, fail(red, sdk.KindBadRequest, nil, "openai: the answer was withheld by the content filter")
	case len(content) == 0:
		return nil, fail(red, sdk.KindUnknown, nil, "openai: the model returned an empty answer (finish_reason %q)", c.finishReason)
	case c.finishReason == "length" && !json.Valid(content):
		return nil, fail(red, sdk.KindBadRequest, nil,
			"openai: the answer was cut off at max_tokens (finish_reason \"length\", %d completion tokens) before its JSON was complete; raise max_tokens",
			c.usage.CompletionTokens)
	}
	// Content that is not JSON goes to the host as is: its one repair
	// routine (code fences, prose, trailing commas) decides what to keep.
	return content, nil
}
