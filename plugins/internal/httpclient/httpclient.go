// Package httpclient builds the *http.Client every remote plugin (gitlab,
// youtrack, openai) sends through, so that one place decides what a hostile
// or broken server can do to nous: credentials never follow a redirect to
// another origin, https is never downgraded, every phase of a request has a
// deadline, and no response body is read past a limit.
package httpclient

import (
	"net"
	"net/http"
	"time"
)

// Defaults for the zero Options.
const (
	DefaultDial           = 10 * time.Second
	DefaultTLSHandshake   = 10 * time.Second
	DefaultResponseHeader = 60 * time.Second
	DefaultIdle           = 30 * time.Second
	DefaultMaxBody        = 64 << 20
	// maxRedirects is Go's own default, kept when CheckRedirect is replaced.
	maxRedirects = 10
)

// Options bound one client's requests. Zero fields get the defaults.
type Options struct {
	// Dial bounds connecting (DNS and TCP).
	Dial time.Duration
	// TLSHandshake bounds the TLS handshake.
	TLSHandshake time.Duration
	// ResponseHeader bounds the wait from sending the request to the
	// response headers: a server that accepts and never answers.
	ResponseHeader time.Duration
	// Idle bounds the wait for the next bytes of a response body: a server
	// that sends headers and then stalls.
	Idle time.Duration
	// MaxBody bounds every response body in bytes.
	MaxBody int64
	// MaxBodyKey is the config key that sets MaxBody, named when it is hit.
	MaxBodyKey string
	// SecretHeaders are headers beyond the standard credential ones
	// (Authorization, Private-Token, Job-Token, Cookie…) that carry a secret.
	SecretHeaders []string
}

func (o Options) withDefaults() Options {
	orDefault := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	orDefault(&o.Dial, DefaultDial)
	orDefault(&o.TLSHandshake, DefaultTLSHandshake)
	orDefault(&o.ResponseHeader, DefaultResponseHeader)
	orDefault(&o.Idle, DefaultIdle)
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	return o
}

// New returns a hardened client: its own transport with dial and TLS
// timeouts, the response-header and idle timeouts, the body limit and the
// redirect policy.
func New(o Options) *http.Client { return Harden(nil, o) }

// Harden returns a copy of c (nil: a fresh client on a new transport) with
// the redirect policy, the response-header and idle timeouts and the body
// limit. A caller's transport is kept, so tests can inject one, but it
// then keeps its own dial and TLS settings. c itself is not changed.
func Harden(c *http.Client, o Options) *http.Client {
	o = o.withDefaults()
	var hc http.Client
	if c != nil {
		hc = *c
	}
	base := hc.Transport
	if base == nil {
		base = newTransport(o)
	}
	hc.Transport = &guard{next: base, opts: o}
	hc.CheckRedirect = redirectPolicy(o.SecretHeaders, hc.CheckRedirect)
	return &hc
}

// newTransport is Go's default transport (proxy from the environment,
// HTTP/2, pooled connections) with explicit dial and TLS deadlines.
func newTransport(o Options) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: o.Dial, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = o.TLSHandshake
	// A backstop only: the guard's own timer fires first and says why. Equal
	// timers raced, and the transport's terser error won on a loaded machine.
	t.ResponseHeaderTimeout = 2 * o.ResponseHeader
	t.IdleConnTimeout = 90 * time.Second
	t.ExpectContinueTimeout = time.Second
	return t
}
