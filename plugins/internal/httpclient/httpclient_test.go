package httpclient

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a server that keeps the headers of every request it gets.
type recorder struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []http.Header
}

func newRecorder(t *testing.T, tlsServer bool) *recorder {
	r := &recorder{}
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.got = append(r.got, req.Header.Clone())
		r.mu.Unlock()
		_, _ = io.WriteString(w, "landed")
	})
	if tlsServer {
		r.srv = httptest.NewTLSServer(h)
	} else {
		r.srv = httptest.NewServer(h)
	}
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) headers() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.got...)
}

// redirector answers every request with status and Location target+path.
func redirector(t *testing.T, status int, target string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+"/landing", status)
	}))
	t.Cleanup(srv.Close)
	return srv
}

var secrets = map[string]string{
	"Authorization": "Bearer s3cret-bearer",
	"Private-Token": "glpat-s3cret",
	"Job-Token":     "job-s3cret",
	"Cookie":        "session=s3cret",
	"X-Api-Key":     "registered-s3cret",
}

func request(t *testing.T, method, url string) *http.Request {
	req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(`{"q":1}`))
	require.NoError(t, err)
	for k, v := range secrets {
		req.Header.Set(k, v)
	}
	req.Header.Set("X-Plain", "kept")
	return req
}

func TestRedirectToAnotherPortCarriesNoCredential(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusMovedPermanently} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			t.Run(http.StatusText(status)+" "+method, func(t *testing.T) {
				other := newRecorder(t, false)
				from := redirector(t, status, other.srv.URL)
				require.NotEqual(t, from.Listener.Addr().String(), other.srv.Listener.Addr().String())

				c := New(Options{SecretHeaders: []string{"X-Api-Key"}})
				resp, err := c.Do(request(t, method, from.URL))
				require.NoError(t, err)
				body, _ := io.ReadAll(resp.Body)
				require.NoError(t, resp.Body.Close())
				assert.Equal(t, "landed", string(body))

				got := other.headers()
				require.Len(t, got, 1)
				for k := range secrets {
					assert.Empty(t, got[0].Values(k), "%s followed the redirect to another port", k)
				}
				assert.Equal(t, "kept", got[0].Get("X-Plain"), "headers without a secret still follow")
			})
		}
	}
}

func TestRedirectWithinTheOriginKeepsCredentials(t *testing.T) {
	rec := newRecorder(t, false)
	mux := http.NewServeMux()
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/landing", http.StatusFound) })
	mux.Handle("/landing", rec.srv.Config.Handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	resp, err := New(Options{SecretHeaders: []string{"X-Api-Key"}}).Do(request(t, http.MethodGet, srv.URL+"/start"))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	got := rec.headers()
	require.Len(t, got, 1)
	for k, v := range secrets {
		assert.Equal(t, v, got[0].Get(k), "same scheme, host and port: %s is kept", k)
	}
}

func TestRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	plain := newRecorder(t, false)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.srv.URL+"/landing", http.StatusFound)
	}))
	t.Cleanup(secure.Close)
	c := Harden(secure.Client(), Options{})

	resp, err := c.Do(request(t, http.MethodGet, secure.URL))
	if resp != nil {
		_ = resp.Body.Close()
	}
	require.Error(t, err)
	assert.True(t, Refused(err), "%v", err)
	var re *RedirectError
	require.True(t, errors.As(err, &re))
	assert.Contains(t, err.Error(), "https must not be downgraded to http")
	assert.Empty(t, plain.headers(), "the http server is never contacted")
}

func TestHardenLeavesTheCallersClientAlone(t *testing.T) {
	called := 0
	orig := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { called++; return nil }}
	c := Harden(orig, Options{})
	assert.Nil(t, orig.Transport)
	require.NotNil(t, c.Transport)

	other := newRecorder(t, false)
	from := redirector(t, http.StatusFound, other.srv.URL)
	resp, err := c.Do(request(t, http.MethodGet, from.URL))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, 1, called, "the caller's own redirect policy still runs")
	assert.Empty(t, other.headers()[0].Get("Authorization"))
}

// endless streams a JSON string of zeroes that never ends.
func endless(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `[{"title":"`)
		chunk := []byte(strings.Repeat("0", 32<<10))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestBodyLimit(t *testing.T) {
	const limit = 1 << 20
	exact := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(make([]byte, limit))
	}))
	t.Cleanup(exact.Close)
	tests := []struct {
		name    string
		url     string
		wantErr string
		wantLen int
	}{
		{"endless body stops at the limit", endless(t).URL, "is larger than the limit of 1048576 bytes (1 MiB); raise max_response_bytes", limit},
		{"a body of exactly the limit is whole", exact.URL, "", limit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(Options{MaxBody: limit, MaxBodyKey: "max_response_bytes"})
			resp, err := c.Get(tt.url)
			require.NoError(t, err)
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			assert.Len(t, data, tt.wantLen, "nothing past the limit is read")
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.True(t, Refused(err))
			var tl *TooLargeError
			require.True(t, errors.As(err, &tl))
			assert.Equal(t, int64(limit), tl.Limit)
		})
	}
}

// silent accepts connections and never answers.
func silent(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

func TestTimeouts(t *testing.T) {
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "[")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(stall.Close)
	tlsSilent := silent(t)
	tests := []struct {
		name  string
		url   string
		opts  Options
		phase string
		want  string
	}{
		{"server accepts and never answers", silent(t), Options{ResponseHeader: 150 * time.Millisecond}, phaseHeaders,
			"sent no response headers within 150ms (response header timeout)"},
		{"server stalls in the body", stall.URL, Options{Idle: 150 * time.Millisecond}, phaseBody,
			"sent no data for 150ms while sending the response body (idle timeout)"},
		{"TLS handshake never completes", strings.Replace(tlsSilent, "http:", "https:", 1), Options{TLSHandshake: 150 * time.Millisecond}, "",
			"TLS handshake timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(tt.opts)
			c.Transport.(*guard).next.(*http.Transport).TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // a test server
			resp, err := c.Get(tt.url)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				_ = resp.Body.Close()
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			if tt.phase != "" {
				var te *TimeoutError
				require.True(t, errors.As(err, &te), "%v", err)
				assert.Equal(t, tt.phase, te.Phase)
				assert.False(t, Refused(err), "a timeout is worth another attempt")
			}
		})
	}
}

func TestOrigin(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"https://h/x", "https://h:443/y", true},
		{"https://H/x", "https://h/y", true},
		{"http://h:1/", "http://h:2/", false},
		{"http://h/", "https://h/", false},
		{"https://h/", "https://sub.h/", false},
		{"http://[::1]:80/", "http://[::1]/", true},
	}
	for _, tt := range tests {
		t.Run(tt.a+" "+tt.b, func(t *testing.T) {
			a, b := mustURL(t, tt.a), mustURL(t, tt.b)
			assert.Equal(t, tt.same, origin(a) == origin(b))
		})
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

func TestCredentialOnlyToItsOrigin(t *testing.T) {
	same := newRecorder(t, false)
	other := newRecorder(t, false)
	base := mustURL(t, same.srv.URL+"/api/v3/")
	c := New(Options{})
	c.Transport = Credential(c.Transport, base, "Authorization", "Bearer s3cret")
	for _, u := range []string{same.srv.URL + "/repos/x", other.srv.URL + "/repos/x"} {
		resp, err := c.Get(u)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
	}
	assert.Equal(t, "Bearer s3cret", same.headers()[0].Get("Authorization"))
	assert.Empty(t, other.headers()[0].Get("Authorization"), "another port is another origin")
}

func TestCheckBaseURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://h", ""},
		{"http://h:8080/api/v3", ""},
		{"ftp://h", "want an http:// or https:// URL such as https://example"},
		{"https://", "missing host"},
		{"https://u:p@h", "must not carry credentials"},
		{"ftp://u:p@h%zz", "must not carry credentials"},
		{"https://h/?q=1", "must not have a query or fragment"},
		{"://", "is not a URL"},
	}
	for _, tt := range tests {
		err := CheckBaseURL(tt.in, "https://example")
		if tt.want == "" {
			assert.NoError(t, err, tt.in)
			continue
		}
		require.Error(t, err, tt.in)
		assert.Contains(t, err.Error(), tt.want)
		assert.NotContains(t, err.Error(), "u:p", "credentials are never quoted")
	}
}
