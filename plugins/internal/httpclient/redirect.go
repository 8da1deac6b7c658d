package httpclient

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// credentialHeaders carry a secret in some client nous ships or in a proxy
// between: never sent to an origin other than the one they were set for.
var credentialHeaders = []string{
	"Authorization", "Proxy-Authorization", "Cookie", "Cookie2",
	"Private-Token", "Job-Token", // GitLab
}

// ErrRefused marks a request the client refused on purpose: a redirect
// downgrading https to http, one redirect too many, or a body over the
// limit. Retrying would meet the same refusal.
var ErrRefused = errors.New("refused")

// RedirectError is a redirect the policy refused.
type RedirectError struct {
	From, To string // scheme://host of each side, never a path or query
	Reason   string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("refused redirect from %s to %s: %s", e.From, e.To, e.Reason)
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *RedirectError) Is(target error) bool { return target == ErrRefused }

// redirectPolicy strips credentials from a redirect that leaves the first
// request's origin (scheme, host or port), refuses https to http, and then
// defers to the caller's own policy, if any. Go's client copies headers to
// the redirected request before calling CheckRedirect and drops only
// Authorization and Cookie, and only for another domain, not another port.
func redirectPolicy(extra []string, next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	secret := append(append([]string(nil), credentialHeaders...), extra...)
	return func(req *http.Request, via []*http.Request) error {
		if len(via) == 0 {
			return nil
		}
		first, prev := via[0].URL, via[len(via)-1].URL
		if len(via) >= maxRedirects {
			return &RedirectError{From: origin(prev), To: origin(req.URL), Reason: fmt.Sprintf("more than %d redirects", maxRedirects)}
		}
		for _, v := range via {
			if strings.EqualFold(v.URL.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
				return &RedirectError{From: origin(prev), To: origin(req.URL), Reason: "https must not be downgraded to " + req.URL.Scheme}
			}
		}
		if origin(first) != origin(req.URL) {
			for _, h := range secret {
				req.Header.Del(h)
			}
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
}

// origin is scheme://host:port with the default port made explicit, so
// https://h and https://h:443 are one origin and http://h:1 and http://h:2 two.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
