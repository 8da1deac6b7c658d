package youtrack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
)

// Client is a small YouTrack REST client: issue search with paging,
// bearer-token auth, the shared backoff on 429 and 5xx.
type Client struct {
	api    *url.URL // …/api
	web    *url.URL // the instance root, for issue links
	token  string
	http   *http.Client
	policy retry.Policy
}

// NewClient returns a client for the YouTrack instance at baseURL (Cloud
// https://x.youtrack.cloud or Server https://host/youtrack, with or
// without a trailing /api). nil httpClient gets httpclient's hardened one.
func NewClient(baseURL, token string, httpClient *http.Client, policy retry.Policy) (*Client, error) {
	api, web, err := normaliseBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	if httpClient == nil {
		httpClient = httpclient.New(httpclient.Options{})
	}
	return &Client{api: api, web: web, token: token, http: httpClient, policy: policy}, nil
}

// normaliseBaseURL returns the API root (ending in /api) and the web root.
func normaliseBaseURL(s string) (api, web *url.URL, err error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, nil, fmt.Errorf("%q is not a URL: %w", s, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, nil, fmt.Errorf("%q: want an http:// or https:// URL such as https://example.youtrack.cloud", s)
	case u.Host == "":
		return nil, nil, fmt.Errorf("%q: missing host", s)
	case u.User != nil:
		return nil, nil, errors.New("base_url must not carry credentials; use the token key")
	case u.RawQuery != "" || u.Fragment != "":
		return nil, nil, fmt.Errorf("%q: must not have a query or fragment", s)
	}
	path := strings.TrimRight(u.Path, "/")
	path = strings.TrimSuffix(path, "/api")
	w := *u
	w.Path, w.RawPath = path, ""
	a := w
	a.Path = path + "/api"
	return &a, &w, nil
}

// IssueURL is the web link of an issue.
func (c *Client) IssueURL(idReadable string) string {
	return c.web.String() + "/issue/" + url.PathEscape(idReadable)
}

// Issues returns one page of issues matching query: top of them after
// skipping skip, always with IssueFields.
func (c *Client) Issues(ctx context.Context, query string, skip, top int) ([]Issue, error) {
	v := url.Values{}
	v.Set("fields", IssueFields)
	if query != "" {
		v.Set("query", query)
	}
	v.Set("$skip", strconv.Itoa(skip))
	v.Set("$top", strconv.Itoa(top))
	u := *c.api
	u.Path += "/issues"
	u.RawQuery = v.Encode()

	var issues []Issue
	err := c.policy.Do(ctx, func(ctx context.Context) error {
		issues = nil
		return c.get(ctx, u.String(), &issues)
	})
	if err != nil {
		return nil, giveUp(err)
	}
	return issues, nil
}

// giveUp reports a call the retry policy stopped retrying: rate limited
// or unavailable; other errors pass unchanged.
func giveUp(err error) error {
	var g *retry.GiveUpError
	if !errors.As(err, &g) {
		return err
	}
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests {
		return sdk.Errorf(sdk.KindRateLimited, "youtrack: rate limited: %v", g)
	}
	return sdk.Errorf(sdk.KindUnavailable, "youtrack: %v", g)
}

// get fetches u into v, classifying failures: retryable (429, 5xx,
// transport) as retry.Retryable, the rest as *sdk.Error.
func (c *Client) get(ctx context.Context, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return sdk.Errorf(sdk.KindBadConfig, "youtrack: building request: %v", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "nous-youtrack/"+Version)
	resp, err := c.http.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return contextError(ctxErr)
		}
		if httpclient.Refused(err) { // a refused redirect: the same again
			return sdk.Errorf(sdk.KindUnavailable, "youtrack: %v", err)
		}
		return retry.After(fmt.Errorf("youtrack: %w", err), nil)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return classify(&APIError{Status: resp.StatusCode, Message: apiMessage(body)}, resp.Header)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return contextError(ctxErr)
		}
		if httpclient.Refused(err) { // a body over the limit: the same again
			return sdk.Errorf(sdk.KindUnavailable, "youtrack: %v", err)
		}
		var te *httpclient.TimeoutError
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &te) { // a cut or stalled body: worth another GET
			return retry.After(fmt.Errorf("youtrack: reading response: %w", err), nil)
		}
		return sdk.Errorf(sdk.KindUnavailable, "youtrack: malformed response: %v", err)
	}
	return nil
}

// APIError is a non-2xx YouTrack answer: the status and YouTrack's message.
type APIError struct {
	Status  int
	Message string
}

func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

func classify(ae *APIError, h http.Header) error {
	switch {
	case ae.Status == http.StatusUnauthorized:
		return sdk.Errorf(sdk.KindUnauthorized, "youtrack: token rejected: %v", ae)
	case ae.Status == http.StatusForbidden:
		return sdk.Errorf(sdk.KindUnauthorized, "youtrack: access forbidden: %v", ae)
	case ae.Status == http.StatusNotFound:
		return sdk.Errorf(sdk.KindNotFound, "youtrack: not found (is base_url the YouTrack root?): %v", ae)
	case retry.ShouldRetry(ae.Status):
		return retry.After(ae, h)
	case ae.Status == http.StatusBadRequest:
		return sdk.Errorf(sdk.KindBadRequest, "youtrack: bad request: %v", ae)
	}
	return sdk.Errorf(sdk.KindUnknown, "youtrack: %v", ae)
}

func contextError(err error) error { return retry.ContextError("youtrack", err) }

// apiMessage extracts YouTrack's {"error", "error_description"} (Hub's
// OAuth form, used for every REST error), else the trimmed body text.
func apiMessage(body []byte) string {
	var b struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
		Message          string `json:"message"`
	}
	if err := json.Unmarshal(body, &b); err == nil {
		switch {
		case b.Error != "" && b.ErrorDescription != "":
			return b.Error + ": " + b.ErrorDescription
		case b.ErrorDescription != "":
			return b.ErrorDescription
		case b.Error != "":
			return b.Error
		case b.Message != "":
			return b.Message
		}
	}
	text := strings.TrimSpace(string(body))
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	return text
}
