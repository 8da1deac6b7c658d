// Package hosted is what the hosted sources (github, gitlab, youtrack)
// take from outside besides their config: the environment their fallbacks
// read, the HTTP client, the retry policy and a logger. Each source offers
// these options as its own.
package hosted

import (
	"io"
	"log/slog"
	"net/http"
	"os"

	"github.com/nous-dev/nous/plugins/internal/retry"
)

// Deps are a hosted source's outside dependencies.
type Deps struct {
	Getenv     func(string) string // the fallbacks' environment (os.Getenv)
	HTTPClient *http.Client        // nil: a hardened client of its own
	Policy     retry.Policy        // for rate limits and 5xx answers
	Logger     *slog.Logger        // retries and paging (default: nowhere)
}

// Option customises a source's Deps.
type Option func(*Deps)

// WithEnv replaces os.Getenv for the source's URL and token fallbacks.
func WithEnv(getenv func(string) string) Option { return func(d *Deps) { d.Getenv = getenv } }

// WithHTTPClient sets the HTTP client requests go through; it still gets
// the redirect policy, timeouts and body limit of httpclient.
func WithHTTPClient(c *http.Client) Option { return func(d *Deps) { d.HTTPClient = c } }

// WithRetry replaces the retry policy for rate limits and 5xx answers.
func WithRetry(p retry.Policy) Option { return func(d *Deps) { d.Policy = p } }

// WithLogger sets where the source logs retries and paging.
func WithLogger(l *slog.Logger) Option { return func(d *Deps) { d.Logger = l } }

// New returns the defaults with opts applied.
func New(opts []Option) Deps {
	d := Deps{Getenv: os.Getenv, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, o := range opts {
		o(&d)
	}
	return d
}
