// Package github is the GitHub source plugin: issues, pull requests,
// commits, releases and Actions workflow runs of a repository on github.com or GitHub Enterprise Server, through
// github.com/google/go-github.
package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/plugins/internal/hosted"
	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
	"github.com/nous-dev/nous/sdk/redact"
)

// Version is the github plugin's version.
const Version = "0.1.0"

// Source is the GitHub sdk.Source. Build it with New; Configure it before Fetch.
type Source struct {
	deps hosted.Deps

	mu     sync.RWMutex
	client *gh.Client
	cache  *etagCache
	cfg    Config
}

// Option customises a Source.
type Option = hosted.Option

// The options every hosted source takes: WithEnv replaces os.Getenv for the
// GITHUB_API_URL, GITHUB_TOKEN and GH_TOKEN fallbacks; WithHTTPClient,
// WithRetry and WithLogger set the HTTP client, the retry policy and the
// logger (see package hosted).
var (
	WithEnv        = hosted.WithEnv
	WithHTTPClient = hosted.WithHTTPClient
	WithRetry      = hosted.WithRetry
	WithLogger     = hosted.WithLogger
)

// New returns an unconfigured GitHub source.
func New(opts ...Option) *Source { return &Source{deps: hosted.New(opts)} }

// Describe says what the source returns and which filters it understands.
func (s *Source) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{
		Name:         "github",
		Version:      Version,
		SDKVersion:   sdk.Version,
		Kinds:        []string{sdk.KindIssue, sdk.KindPullRequest, sdk.KindCommit, sdk.KindRelease, sdk.KindPipeline},
		Filters:      append([]string(nil), Filters...),
		ConfigSchema: config.Schema[Config](),
	}, nil
}

// Configure reads the config map (falling back to the environment) and
// builds the client. With any error diagnostic the source stays unconfigured.
func (s *Source) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := parseConfig(raw, s.deps.Getenv)
	if diags.HasErrors() {
		return diags, nil
	}
	client, cache, err := s.newClient(cfg)
	if err != nil {
		red := redact.New(cfg.Token)
		return append(diags, config.Error("base_url", "github: cannot build the client", red.String(err.Error()))), nil
	}
	s.mu.Lock()
	s.client, s.cache, s.cfg = client, cache, cfg
	s.mu.Unlock()
	return diags, nil
}

// newClient builds the go-github client over the hardened HTTP client, the
// token set only on requests to the API's own origin, and the ETag cache.
// go-github's own rate-limit bookkeeping is off: the retry policy waits
// instead, within the caller's deadline.
func (s *Source) newClient(cfg Config) (*gh.Client, *etagCache, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return nil, nil, err
	}
	hc := httpclient.Harden(s.deps.HTTPClient, httpclient.Options{
		MaxBody:    int64(cfg.MaxResponseBytes),
		MaxBodyKey: httpclient.MaxBodyConfigKey,
	})
	if cfg.Token != "" {
		hc.Transport = httpclient.Credential(hc.Transport, base, "Authorization", "Bearer "+cfg.Token)
	}
	cache := newETagCache(hc.Transport)
	hc.Transport = cache
	client := gh.NewClient(hc)
	if !strings.EqualFold(base.Host, "api.github.com") {
		if client, err = client.WithEnterpriseURLs(cfg.BaseURL, cfg.BaseURL); err != nil {
			return nil, nil, err
		}
	}
	// Set after WithEnterpriseURLs, whose copy does not keep them.
	client.UserAgent = "nous-github/" + Version
	client.DisableRateLimitCheck = true
	return client, cache, nil
}

// errLimit stops paging once the request's limit is reached.
var errLimit = errors.New("limit reached")

// Fetch streams the records req asks for.
func (s *Source) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) (err error) {
	s.mu.RLock()
	client, cfg := s.client, s.cfg
	s.mu.RUnlock()
	red := redact.New(cfg.Token)
	logger := slog.New(red.Handler(s.deps.Logger.Handler()))
	defer func() {
		if r := recover(); r != nil {
			err = &sdk.Error{Kind: sdk.KindUnknown, Message: red.String(fmt.Sprintf("github: internal error: %v", r))}
		}
	}()
	if client == nil {
		return sdk.Errorf(sdk.KindBadConfig, "github: not configured (call Configure first)")
	}
	q, err := parseRequest(req, cfg.Repo)
	if err != nil {
		return err
	}
	run := &fetchRun{client: client, policy: s.deps.Policy, logger: logger, red: red, q: q, emit: emit,
		seen: map[string]bool{}, milestones: map[string][]*gh.Milestone{}, authenticated: cfg.Token != ""}
	for _, sc := range q.scopes() {
		if err := run.scope(ctx, sc); err != nil {
			if errors.Is(err, errLimit) {
				return nil
			}
			if run.emitErr != nil {
				return run.emitErr
			}
			logger.Warn("github fetch failed", "kind", q.kind, "scope", sc.String(), "error", err)
			return red.Error(err)
		}
	}
	return nil
}

// fetchRun is one Fetch call's state: dedupe across scopes, the limit and
// the caller's emit error, which must come back unchanged.
type fetchRun struct {
	client        *gh.Client
	policy        retry.Policy
	logger        *slog.Logger // masks the token
	red           *redact.Redactor
	q             query
	emit          func(sdk.Record) error
	seen          map[string]bool
	emitted       int
	emitErr       error
	authenticated bool
	milestones    map[string][]*gh.Milestone // per repository, listed once
	searching     bool                       // a search answers exactly, every item counts
}

func (r *fetchRun) scope(ctx context.Context, sc scope) error {
	r.policy.Notify = func(attempt int, wait time.Duration, err error) {
		r.logger.Info("github: retrying", "repo", sc.repo, "attempt", attempt, "wait", wait, "error", err)
	}
	start, before := time.Now(), r.emitted
	var err error
	switch r.q.kind {
	case sdk.KindIssue:
		err = r.fetchIssues(ctx, sc)
	case sdk.KindPullRequest:
		err = r.fetchPullRequests(ctx, sc)
	case sdk.KindCommit:
		err = r.fetchCommits(ctx, sc)
	case sdk.KindRelease:
		err = r.fetchReleases(ctx, sc)
	case sdk.KindPipeline:
		err = r.fetchRuns(ctx, sc)
	}
	r.logger.Debug("github: fetched", "kind", r.q.kind, "scope", sc.String(), "records", r.emitted-before, "took", time.Since(start))
	return err
}

// pageSize is per_page for the next listing: 100, GitHub's maximum, or
// fewer when the caller's limit needs fewer and every listed item counts.
func (r *fetchRun) pageSize() int {
	if r.q.limit > 0 && r.q.limit-r.emitted < perPage && (r.searching || r.q.exact()) {
		return r.q.limit - r.emitted
	}
	return perPage
}

// out dedupes, redacts and counts records on their way to emit.
func (r *fetchRun) out(rec sdk.Record) error {
	if r.seen[rec.ID] {
		return nil
	}
	r.seen[rec.ID] = true
	if err := r.emit(r.red.Record(rec)); err != nil {
		r.emitErr = err
		return err
	}
	r.emitted++
	if r.q.limit > 0 && r.emitted >= r.q.limit {
		return errLimit
	}
	return nil
}

var _ sdk.Source = (*Source)(nil)
