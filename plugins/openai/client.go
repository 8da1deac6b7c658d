package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
)

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// complete sends one chat completion, retrying what is worth retrying.
func (a *Agent) complete(ctx context.Context, cfg Config, req sdk.InvokeRequest, format string) (completion, error) {
	body, err := json.Marshal(chatBody(cfg, req, format))
	if err != nil {
		return completion{}, fmt.Errorf("encode request: %w", err)
	}
	var c completion
	err = a.withRetries(ctx, cfg, func(ctx context.Context) error {
		var err error
		c, err = a.attempt(ctx, cfg, body)
		return err
	})
	return c, err
}

// chatBody is the request for req under cfg with the given output format.
func chatBody(cfg Config, req sdk.InvokeRequest, format string) chatRequest {
	body := chatRequest{
		Model:       cfg.Model,
		Messages:    messages(req, format, cfg.MaxContextChars),
		Temperature: cfg.Temperature,
		MaxTokens:   cfg.MaxTokens,
		Stream:      cfg.Stream,
	}
	if cfg.Stream {
		body.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	switch format {
	case FormatJSONSchema:
		body.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchema{
			Name: schemaName(req.Role), Schema: strictSchema(req.Schema), Strict: true,
		}}
	case FormatJSONObject:
		body.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	return body
}

// attempt is one HTTP round trip.
func (a *Agent) attempt(ctx context.Context, cfg Config, body []byte) (completion, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return completion{}, fmt.Errorf("build request: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("User-Agent", "nous-openai/"+Version)
	if cfg.Stream {
		hreq.Header.Set("Accept", "text/event-stream")
	} else {
		hreq.Header.Set("Accept", "application/json")
	}
	if cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	resp, err := a.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return completion{}, ctx.Err()
		}
		return completion{}, &transportError{err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return completion{}, newStatusError(resp.StatusCode, resp.Header, raw)
	}
	var c completion
	if cfg.Stream && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		c, err = readStream(resp.Body)
	} else {
		c, err = readCompletion(resp.Body)
	}
	if err != nil && ctx.Err() != nil {
		return c, ctx.Err()
	}
	return c, err
}

// readCompletion decodes a non-streamed chat.completion.
func readCompletion(r io.Reader) (completion, error) {
	var cc chatCompletion
	if err := json.NewDecoder(r).Decode(&cc); err != nil {
		return completion{}, fmt.Errorf("the response is not a chat.completion object: %w", err)
	}
	if len(cc.Choices) == 0 {
		return completion{}, errors.New("the response has no choices")
	}
	ch := cc.Choices[0]
	c := completion{finishReason: ch.FinishReason, model: cc.Model}
	if ch.Message.Content != nil {
		c.content = *ch.Message.Content
	}
	if ch.Message.Refusal != nil {
		c.refusal = *ch.Message.Refusal
	}
	if cc.Usage != nil {
		c.usage = *cc.Usage
	}
	return c, nil
}

// transportError is a request that never got an HTTP answer.
type transportError struct{ err error }

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

// withRetries calls fn until it succeeds, fails for good, runs out of
// retries, or the next wait would pass the context's deadline.
func (a *Agent) withRetries(ctx context.Context, cfg Config, fn func(ctx context.Context) error) error {
	retries := cfg.MaxRetries
	policy := retry.Policy{Base: 500 * time.Millisecond, Max: 8 * time.Second, Now: a.now, Rand: a.rand}
	for n := 0; ; n++ {
		err := fn(ctx)
		var se *statusError
		var te *transportError
		var header http.Header
		switch {
		case err == nil:
			return nil
		case asStatus(err, &se) && se.retryable():
			header = se.header
		case errors.As(err, &te):
		default:
			return err
		}
		if n >= retries {
			return &exhaustedError{attempts: n + 1, err: err}
		}
		wait, ok := retryAfterMillis(header)
		if !ok {
			wait = policy.Delay(header, n)
		}
		if deadline, ok := ctx.Deadline(); ok && a.now().Add(wait).After(deadline) {
			return &exhaustedError{attempts: n + 1, err: err, refusedWait: wait}
		}
		a.log.WarnContext(ctx, "openai: retrying", "model", cfg.Model, "attempt", n+1, "wait", wait,
			"error", redactor{key: cfg.APIKey}.redact(err.Error()))
		if err := a.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// exhaustedError is a retryable failure that was not retried further.
type exhaustedError struct {
	attempts    int
	refusedWait time.Duration // the wait that would have passed the deadline
	err         error
}

func (e *exhaustedError) Error() string {
	if e.refusedWait > 0 {
		return fmt.Sprintf("%v (after %d attempt(s); the next retry, in %s, would pass the deadline)", e.err, e.attempts, e.refusedWait.Round(time.Millisecond))
	}
	return fmt.Sprintf("%v (after %d attempt(s))", e.err, e.attempts)
}

func (e *exhaustedError) Unwrap() error { return e.err }

// retryAfterMillis reads OpenAI's retry-after-ms header.
func retryAfterMillis(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After-Ms"))
	if v == "" {
		return 0, false
	}
	ms, err := strconv.ParseFloat(v, 64)
	if err != nil || ms < 0 {
		return 0, false
	}
	return time.Duration(ms * float64(time.Millisecond)), true
}

func asStatus(err error, target **statusError) bool { return errors.As(err, target) }

// describeFailure turns a failed call into an *sdk.Error with a kind the
// host can act on and a message that names the endpoint but no secret.
func (a *Agent) describeFailure(ctx context.Context, red redactor, cfg Config, err error) error {
	where := "openai: POST " + redactURL(cfg.BaseURL) + "/chat/completions (model " + cfg.Model + ")"
	var se *statusError
	var te *transportError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)):
		return red.fail(sdk.KindDeadline, err, "%s: out of time", where)
	case errors.Is(err, context.Canceled):
		return red.fail(sdk.KindDeadline, err, "%s: cancelled", where)
	case asStatus(err, &se):
		kind := se.kind()
		if se.status == http.StatusNotFound {
			return red.fail(kind, err, "%s: not found (is the model name right, and base_url the API root ending in /v1?)", where)
		}
		if se.status == http.StatusOK { // an error event inside a stream
			kind = sdk.KindUnavailable
		}
		return red.fail(kind, err, "%s", where)
	case errors.As(err, &te):
		return red.fail(sdk.KindUnavailable, err, "%s: the server could not be reached", where)
	case errors.Is(err, errTruncated):
		return red.fail(sdk.KindUnavailable, err, "%s: truncated stream", where)
	}
	return red.fail(sdk.KindUnknown, err, "%s", where)
}

// redactURL hides any user:password in a base URL.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
