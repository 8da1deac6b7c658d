package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// apiError is a non-2xx GitHub answer reduced to what a user needs: the
// status and GitHub's own message. It never holds the request's headers.
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

// limitError is a rate limit GitHub answered with: the primary one
// (x-ratelimit-remaining 0 until x-ratelimit-reset) or a secondary one
// (retry-after, else the reset, else a minute as GitHub's docs say).
type limitError struct {
	api           *apiError
	secondary     bool
	limit         int
	reset         time.Time // when the primary window ends; zero for a secondary limit
	wait          time.Duration
	authenticated bool
	search        bool // the search API's own limit, per minute
}

func (e *limitError) Error() string { return e.api.Error() }

func (e *limitError) Unwrap() error { return e.api }

// header is what the retry policy reads to wait: Retry-After in seconds.
func (e *limitError) header() http.Header {
	h := http.Header{}
	h.Set("Retry-After", strconv.FormatInt(int64((e.wait+time.Second-1)/time.Second), 10))
	return h
}

// maxLimitWait bounds a wait a header asks for: GitHub's windows are an hour.
const maxLimitWait = 24 * time.Hour

// secondaryWait is GitHub's advice when a secondary limit names no time.
const secondaryWait = time.Minute

// rateLimit reads a 403 or 429 as a rate limit, or returns nil when it is
// another refusal.
func rateLimit(resp *http.Response, api *apiError, authenticated bool, now time.Time) *limitError {
	h := resp.Header
	e := &limitError{api: api, authenticated: authenticated, search: strings.EqualFold(h.Get("X-RateLimit-Resource"), "search")}
	e.limit, _ = strconv.Atoi(h.Get("X-RateLimit-Limit"))
	if epoch, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil && epoch > 0 {
		e.reset = time.Unix(epoch, 0).UTC()
	}
	retryAfter, hasRetryAfter := retry.RetryAfter(h, now)
	primary := h.Get("X-RateLimit-Remaining") == "0" && !hasRetryAfter
	switch {
	case primary && !e.reset.IsZero():
		e.wait = min(max(e.reset.Sub(now), 0), maxLimitWait) + time.Second // the reset second itself may still be refused
	case hasRetryAfter:
		e.secondary, e.wait = true, retryAfter
	case resp.StatusCode == http.StatusTooManyRequests || strings.Contains(strings.ToLower(api.Message), "secondary rate limit"):
		e.secondary, e.wait = true, secondaryWait
	default:
		return nil
	}
	e.wait = min(max(e.wait, 0), maxLimitWait+time.Second) // an overflowing or absurd header
	return e
}

// classify turns one client call's error into what the retry loop needs:
// nil, a retry.Retryable for rate limits, 5xx and network failures, or a
// final *sdk.Error naming the repository.
func classify(ctx context.Context, repo string, authenticated bool, err error) error {
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return contextError(repo, ctxErr)
	}
	var se *sdk.Error
	if errors.As(err, &se) {
		return err
	}
	if resp, api := response(err); resp != nil {
		if resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests {
			if le := rateLimit(resp, api, authenticated, time.Now()); le != nil {
				return retry.After(le, le.header())
			}
		}
		switch s := api.Status; {
		case s == http.StatusUnauthorized:
			return sdk.Errorf(sdk.KindUnauthorized, "github: token rejected for %s: %v; check GITHUB_TOKEN (or the token key)", describeRepo(repo), api)
		case s == http.StatusForbidden:
			return sdk.Errorf(sdk.KindUnauthorized, "github: access to %s forbidden: %v", describeRepo(repo), api)
		case s == http.StatusNotFound:
			hint := "or the token cannot see it"
			if !authenticated {
				hint = "or it is private and no token is set (GITHUB_TOKEN)"
			}
			return sdk.Errorf(sdk.KindNotFound, "github: %s not found, %s: %v", describeRepo(repo), hint, api)
		case retry.ShouldRetry(s):
			return retry.After(api, nil)
		case s == http.StatusBadRequest || s == http.StatusUnprocessableEntity:
			return sdk.Errorf(sdk.KindBadRequest, "github: bad request for %s: %v", describeRepo(repo), api)
		default:
			return sdk.Errorf(sdk.KindUnknown, "github: %s: %v", describeRepo(repo), api)
		}
	}
	if httpclient.Refused(err) { // a refused redirect or a body over the limit: the same again
		return sdk.Errorf(sdk.KindUnavailable, "github: %s: %v", describeRepo(repo), err)
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		return sdk.Errorf(sdk.KindUnavailable, "github: %s: malformed response: %v", describeRepo(repo), err)
	}
	// Transport failures (refused, reset, DNS, a cut body) are worth another GET.
	return retry.After(err, nil)
}

// response extracts the failed response and GitHub's message from the
// client's error types.
func response(err error) (*http.Response, *apiError) {
	var resp *http.Response
	var msg string
	var er *gh.ErrorResponse
	var rl *gh.RateLimitError
	var ab *gh.AbuseRateLimitError
	switch {
	case errors.As(err, &rl):
		resp, msg = rl.Response, rl.Message
	case errors.As(err, &ab):
		resp, msg = ab.Response, ab.Message
	case errors.As(err, &er):
		resp, msg = er.Response, er.Message
	}
	if resp == nil {
		return nil, nil
	}
	return resp, &apiError{Status: resp.StatusCode, Message: text.Clip(text.OneLine(msg), 300)}
}

// giveUp reports a call the retry policy stopped retrying; a rate limit
// says when to retry and how to get a higher one.
func giveUp(ctx context.Context, repo string, err error) error {
	var g *retry.GiveUpError
	if !errors.As(err, &g) {
		var se *sdk.Error
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.As(err, &se) {
			return contextError(repo, ctxErr)
		}
		return err
	}
	var le *limitError
	if errors.As(g.Err, &le) {
		return sdk.Errorf(sdk.KindRateLimited, "github: %s: %s", describeRepo(repo), le.advice(g.Wait))
	}
	return sdk.Errorf(sdk.KindUnavailable, "github: %s: %v", describeRepo(repo), g)
}

// advice says which limit was hit, when it lifts and, unauthenticated,
// how to get a higher one. refused is the wait the deadline did not allow.
func (e *limitError) advice(refused time.Duration) string {
	var b strings.Builder
	if e.secondary {
		b.WriteString("secondary rate limit hit")
	} else {
		period := "an hour"
		if e.search {
			b.WriteString("search ")
			period = "a minute"
		}
		b.WriteString("rate limit exhausted")
		if e.limit > 0 {
			fmt.Fprintf(&b, " (%d requests %s", e.limit, period)
			if !e.authenticated {
				b.WriteString(", unauthenticated")
			}
			b.WriteString(")")
		}
	}
	if refused > 0 {
		fmt.Fprintf(&b, "; waiting %s would pass this call's deadline", refused.Round(time.Second))
	}
	if !e.secondary && !e.reset.IsZero() {
		fmt.Fprintf(&b, "; retry after %s", e.reset.UTC().Format("2006-01-02 15:04:05 UTC"))
	} else {
		fmt.Fprintf(&b, "; retry in %s", e.wait.Round(time.Second))
	}
	switch {
	case !e.authenticated && e.search:
		b.WriteString(", or set GITHUB_TOKEN (or GH_TOKEN) for 30 searches a minute")
	case !e.authenticated:
		b.WriteString(", or set GITHUB_TOKEN (or GH_TOKEN) for 5,000 requests an hour")
	}
	fmt.Fprintf(&b, " (%v)", e.api)
	return b.String()
}

func contextError(repo string, err error) error {
	return retry.ContextError("github: "+describeRepo(repo), err)
}
