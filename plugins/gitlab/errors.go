package gitlab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
)

// apiError is a non-2xx GitLab answer reduced to what a user needs: the
// status and GitLab's own message. It never holds the request's headers.
type apiError struct {
	Status  int
	Message string
}

func (e *apiError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

// classify turns one client call's error into what the retry loop needs:
// nil, a retry.Retryable for 429/5xx and network failures, or a final
// *sdk.Error naming the project.
// body is the failed response's body, when the client dropped it.
func classify(ctx context.Context, project string, body []byte, err error) error {
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return contextError(project, ctxErr)
	}
	if isSDKError(err) {
		return err
	}
	if errors.Is(err, gl.ErrNotFound) {
		ae := &apiError{Status: 404, Message: apiMessage(body)}
		return sdk.Errorf(sdk.KindNotFound, "gitlab: project %q not found, or the token cannot see it: %v", project, ae)
	}
	var er *gl.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		ae := &apiError{Status: er.Response.StatusCode, Message: apiMessage(er.Body)}
		switch {
		case ae.Status == 401:
			return sdk.Errorf(sdk.KindUnauthorized, "gitlab: token rejected for project %q: %v", project, ae)
		case ae.Status == 403:
			return sdk.Errorf(sdk.KindUnauthorized, "gitlab: access to project %q forbidden: %v", project, ae)
		case retry.ShouldRetry(ae.Status):
			return retry.After(ae, er.Response.Header)
		case ae.Status == 400 || ae.Status == 422:
			return sdk.Errorf(sdk.KindBadRequest, "gitlab: bad request for project %q: %v", project, ae)
		default:
			return sdk.Errorf(sdk.KindUnknown, "gitlab: project %q: %v", project, ae)
		}
	}
	if httpclient.Refused(err) { // a refused redirect or a body over the limit: the same again
		return sdk.Errorf(sdk.KindUnavailable, "gitlab: project %q: %v", project, err)
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		return sdk.Errorf(sdk.KindUnavailable, "gitlab: project %q: malformed response: %v", project, err)
	}
	// Transport failures (refused, reset, DNS, a cut body) are worth another GET.
	return retry.After(err, nil)
}

// giveUp reports a call the retry policy stopped retrying.
func giveUp(ctx context.Context, project string, err error) error {
	var g *retry.GiveUpError
	if !errors.As(err, &g) {
		if ctxErr := ctx.Err(); ctxErr != nil && !isSDKError(err) {
			return contextError(project, ctxErr)
		}
		return err
	}
	var ae *apiError
	if errors.As(g.Err, &ae) && ae.Status == 429 {
		return sdk.Errorf(sdk.KindRateLimited, "gitlab: rate limited on project %q: %v", project, g)
	}
	return sdk.Errorf(sdk.KindUnavailable, "gitlab: project %q: %v", project, g)
}

func contextError(project string, err error) error {
	return retry.ContextError(fmt.Sprintf("gitlab: project %q", project), err)
}

func isSDKError(err error) bool {
	var e *sdk.Error
	return errors.As(err, &e)
}

// apiMessage extracts GitLab's message from an error body:
// {"message": "..."}, {"message": {"field": ["..."]}} or the OAuth form
// {"error": "...", "error_description": "..."}; else the trimmed text.
func apiMessage(body []byte) string {
	var b struct {
		Message          json.RawMessage `json:"message"`
		Error            string          `json:"error"`
		ErrorDescription string          `json:"error_description"`
	}
	if err := json.Unmarshal(body, &b); err == nil {
		var s string
		switch {
		case len(b.Message) > 0 && json.Unmarshal(b.Message, &s) == nil:
			return s
		case len(b.Message) > 0 && string(b.Message) != "null":
			return string(b.Message)
		case b.Error != "" && b.ErrorDescription != "":
			return b.Error + ": " + b.ErrorDescription
		case b.Error != "":
			return b.Error
		}
	}
	text := strings.TrimSpace(string(body))
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	return text
}
