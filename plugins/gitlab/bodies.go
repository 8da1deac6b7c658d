package gitlab

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// The client answers a 404 with a bare ErrNotFound and drops GitLab's
// body ("404 Project Not Found" vs "404 Commit Not Found"). keepErrorBodies
// is a transport interceptor that copies the body of every failed response
// into the request's errorBody, so errors can quote GitLab's own words.

type errorBodyKey struct{}

// errorBody receives the body of a failed response.
type errorBody struct{ data []byte }

// withErrorBody returns ctx carrying a fresh errorBody for one request.
func withErrorBody(ctx context.Context) (context.Context, *errorBody) {
	b := &errorBody{}
	return context.WithValue(ctx, errorBodyKey{}, b), b
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// maxErrorBody bounds what is kept of an error body; GitLab's are tiny.
const maxErrorBody = 64 << 10

func keepErrorBodies(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err != nil || resp.StatusCode < 400 {
			return resp, err
		}
		eb, ok := req.Context().Value(errorBodyKey{}).(*errorBody)
		if !ok {
			return resp, nil
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		_ = resp.Body.Close()
		eb.data = data
		resp.Body = io.NopCloser(bytes.NewReader(data))
		return resp, nil
	})
}
