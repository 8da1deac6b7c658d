package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
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
	resp, err := a.client.Load().Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return completion{}, ctx.Err()
		}
		if httpclient.Refused(err) { // a refused redirect: the same again
			return completion{}, err
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
	switch {
	case err != nil && ctx.Err() != nil:
		return c, ctx.Err()
	case httpclient.Refused(err): // over max_response_bytes: said as is
		var tl *httpclient.TooLargeError
		errors.As(err, &tl)
		return c, tl
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
