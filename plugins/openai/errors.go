package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

// statusError is a non-2xx answer from the API.
type statusError struct {
	status int
	header http.Header
	api    *apiError // nil when the body is not the documented error object
	body   string    // the raw body, clipped, when api is nil
}

func (e *statusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", e.status, http.StatusText(e.status))
	switch {
	case e.api != nil:
		if code := strings.Trim(string(e.api.Code), `"`); code != "" && code != "null" {
			fmt.Fprintf(&b, " (%s)", code)
		}
		if e.api.Message != "" {
			b.WriteString(": " + e.api.Message)
		}
		var details []string
		if e.api.Type != "" {
			details = append(details, "type "+e.api.Type)
		}
		if e.api.Param != nil && *e.api.Param != "" {
			details = append(details, "param "+*e.api.Param)
		}
		if len(details) > 0 {
			b.WriteString(" [" + strings.Join(details, ", ") + "]")
		}
	case e.body != "":
		b.WriteString(": " + e.body)
	}
	return b.String()
}

// retryable reports whether the status is worth another attempt: request
// timeout, conflict, rate limit and server errors, as OpenAI's own clients do.
func (e *statusError) retryable() bool {
	return e.status == http.StatusRequestTimeout || e.status == http.StatusConflict ||
		e.status == http.StatusTooManyRequests || e.status >= 500
}

// kind maps the status to an sdk error kind.
func (e *statusError) kind() sdk.ErrorKind {
	switch {
	case e.status == http.StatusUnauthorized || e.status == http.StatusForbidden:
		return sdk.KindUnauthorized
	case e.status == http.StatusNotFound:
		return sdk.KindNotFound
	case e.status == http.StatusTooManyRequests:
		return sdk.KindRateLimited
	case e.status == http.StatusBadRequest || e.status == http.StatusUnprocessableEntity:
		return sdk.KindBadRequest
	case e.status == http.StatusRequestTimeout || e.status == http.StatusConflict || e.status >= 500:
		return sdk.KindUnavailable
	}
	return sdk.KindUnknown
}

// schemaRejected reports whether a 400 says the server does not accept the
// response format (json_schema on older servers or with a schema outside
// the strict subset; json_object on servers that only do json_schema), so
// the call can fall back to a weaker one.
func (e *statusError) schemaRejected() bool {
	if e.status != http.StatusBadRequest && e.status != http.StatusUnprocessableEntity {
		return false
	}
	text := strings.ToLower(e.body)
	if e.api != nil {
		text = strings.ToLower(e.api.Message + " " + e.api.Type + " " + string(e.api.Code))
		if e.api.Param != nil {
			text += " " + strings.ToLower(*e.api.Param)
		}
	}
	return strings.Contains(text, "response_format") || strings.Contains(text, "json_schema") || strings.Contains(text, "json_object")
}

// newStatusError reads an error response body into a statusError.
func newStatusError(status int, header http.Header, body []byte) *statusError {
	e := &statusError{status: status, header: header}
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil && eb.Error != nil {
		e.api = eb.Error
	} else {
		e.body = clipBytes(strings.TrimSpace(string(body)), 500)
	}
	return e
}

// redactor hides the API key, and anything shaped like a bearer token or
// an OpenAI key, in text that may end up in an error, a log or a trace.
func (c Config) redactor() *redact.Redactor { return redact.New(c.APIKey).WithTokenShapes() }

// fail builds the error Invoke returns: an *sdk.Error of kind whose message
// and cause are free of secrets.
func fail(red *redact.Redactor, kind sdk.ErrorKind, cause error, format string, args ...any) error {
	msg := red.String(fmt.Sprintf(format, args...))
	if cause == nil {
		return &sdk.Error{Kind: kind, Message: msg}
	}
	cause = red.Error(cause)
	return &sdk.Error{Kind: kind, Message: msg + ": " + cause.Error(), Err: cause}
}

func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// describeFailure turns a failed call into an *sdk.Error with a kind the
// host can act on and a message that names the endpoint but no secret.
func (a *Agent) describeFailure(ctx context.Context, red *redact.Redactor, cfg Config, err error) error {
	where := "openai: POST " + redactURL(cfg.BaseURL) + "/chat/completions (model " + cfg.Model + ")"
	var se *statusError
	var te *transportError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)):
		return fail(red, sdk.KindDeadline, err, "%s: out of time", where)
	case errors.Is(err, context.Canceled):
		return fail(red, sdk.KindDeadline, err, "%s: cancelled", where)
	case asStatus(err, &se):
		kind := se.kind()
		if se.status == http.StatusNotFound {
			return fail(red, kind, err, "%s: not found (is the model name right, and base_url the API root ending in /v1?)", where)
		}
		if se.status == http.StatusOK { // an error event inside a stream
			kind = sdk.KindUnavailable
		}
		return fail(red, kind, err, "%s", where)
	case errors.As(err, &te):
		return fail(red, sdk.KindUnavailable, err, "%s: the server could not be reached", where)
	case errors.Is(err, errTruncated):
		return fail(red, sdk.KindUnavailable, err, "%s: truncated stream", where)
	}
	return fail(red, sdk.KindUnknown, err, "%s", where)
}

// redactURL hides any user:password in a base URL.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}
