package httpclient

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Credential returns a RoundTripper that sets header to value on requests
// to base's origin only. Clients that add their token in a transport (as
// go-github's WithAuthToken does) would otherwise put it back on a request
// the redirect policy has just stripped for leaving the origin.
func Credential(next http.RoundTripper, base *url.URL, header, value string) http.RoundTripper {
	want := origin(base)
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if value != "" && origin(req.URL) == want {
			req = req.Clone(req.Context())
			req.Header.Set(header, value)
		}
		return next.RoundTrip(req)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// CheckBaseURL accepts an absolute http(s) URL with a host and nothing
// after the path: no query, no fragment, no credentials. example is a URL
// of the service, quoted when the scheme is wrong.
func CheckBaseURL(s, example string) error {
	if strings.Contains(s, "@") { // user:token@host: checked before anything quotes s
		return fmt.Errorf("base_url must not carry credentials; use the token key")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %w", s, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q: want an http:// or https:// URL such as %s", s, example)
	case u.Host == "":
		return fmt.Errorf("%q: missing host", s)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%q: must not have a query or fragment", s)
	}
	return nil
}
