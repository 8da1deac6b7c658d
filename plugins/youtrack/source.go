// Package youtrack is the YouTrack source plugin: issues from YouTrack
// Cloud or Server through a small REST client of its own.
package youtrack

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nous-dev/nous/plugins/internal/hosted"
	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
	"github.com/nous-dev/nous/sdk/redact"
)

// Version is the youtrack plugin's version.
const Version = "0.1.0"

// pageSize is how many issues one request asks for.
const pageSize = 100

// Source is the YouTrack sdk.Source. Build it with New; Configure it before Fetch.
type Source struct {
	deps hosted.Deps

	mu     sync.RWMutex
	client *Client
	cfg    Config
}

// Option customises a Source.
type Option = hosted.Option

// The options every hosted source takes: WithEnv replaces os.Getenv for the
// YOUTRACK_URL and YOUTRACK_TOKEN fallbacks; WithHTTPClient, WithRetry and
// WithLogger set the HTTP client, the retry policy and the logger (see
// package hosted).
var (
	WithEnv        = hosted.WithEnv
	WithHTTPClient = hosted.WithHTTPClient
	WithRetry      = hosted.WithRetry
	WithLogger     = hosted.WithLogger
)

// New returns an unconfigured YouTrack source.
func New(opts ...Option) *Source { return &Source{deps: hosted.New(opts)} }

// Describe says what the source returns and which filters it understands.
func (s *Source) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{
		Name:         "youtrack",
		Version:      Version,
		SDKVersion:   sdk.Version,
		Kinds:        []string{sdk.KindIssue},
		Filters:      append([]string(nil), Filters...),
		ConfigSchema: config.Schema[Config](),
	}, nil
}

// Configure reads the config map (falling back to YOUTRACK_URL and
// YOUTRACK_TOKEN) and builds the client; with any error diagnostic the
// source stays unconfigured.
func (s *Source) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := parseConfig(raw, s.deps.Getenv)
	if diags.HasErrors() {
		return diags, nil
	}
	hc := httpclient.Harden(s.deps.HTTPClient, httpclient.Options{MaxBody: int64(cfg.MaxResponseBytes), MaxBodyKey: httpclient.MaxBodyConfigKey})
	client, err := NewClient(cfg.BaseURL, cfg.Token, hc, s.deps.Policy)
	if err != nil {
		return append(diags, config.Error("base_url", "youtrack: invalid base_url", redact.New(cfg.Token).String(err.Error()))), nil
	}
	s.mu.Lock()
	s.client, s.cfg = client, cfg
	s.mu.Unlock()
	return diags, nil
}

// Fetch pages through the issues matching req, oldest first, deduplicated
// by ID, until a short page or the limit.
func (s *Source) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) (err error) {
	s.mu.RLock()
	base, cfg := s.client, s.cfg
	s.mu.RUnlock()
	red := redact.New(cfg.Token)
	logger := slog.New(red.Handler(s.deps.Logger.Handler()))
	defer func() {
		if r := recover(); r != nil {
			err = &sdk.Error{Kind: sdk.KindUnknown, Message: red.String(fmt.Sprintf("youtrack: internal error: %v", r))}
		}
	}()
	if base == nil {
		return sdk.Errorf(sdk.KindBadConfig, "youtrack: not configured (call Configure with base_url and token first)")
	}
	q, err := parseRequest(req, cfg.Projects)
	if err != nil {
		return err
	}
	client := *base
	client.policy.Notify = func(attempt int, wait time.Duration, err error) {
		logger.Info("youtrack: retrying", "attempt", attempt, "wait", wait, "error", err)
	}

	search := q.String()
	seen := map[string]bool{}
	emitted := 0
	for skip := 0; ; {
		top := pageSize
		if q.limit > 0 {
			top = min(pageSize, q.limit-emitted)
		}
		issues, err := client.Issues(ctx, search, skip, top)
		if err != nil {
			logger.Warn("youtrack fetch failed", "query", search, "skip", skip, "error", err)
			return red.Error(err)
		}
		logger.Debug("youtrack: page", "skip", skip, "top", top, "issues", len(issues))
		fresh := 0
		for _, is := range issues {
			key := is.IDReadable
			if key == "" {
				key = is.ID
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			fresh++
			if err := emit(red.Record(issueRecord(is, client.IssueURL(is.IDReadable), q.dateField))); err != nil {
				return err
			}
			emitted++
			if q.limit > 0 && emitted >= q.limit {
				return nil
			}
		}
		if len(issues) < top {
			return nil
		}
		if fresh == 0 { // a server ignoring $skip would page forever
			logger.Warn("youtrack: a full page held only issues already seen; stopping", "skip", skip)
			return nil
		}
		skip += len(issues)
	}
}

var _ sdk.Source = (*Source)(nil)
