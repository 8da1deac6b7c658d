// Package gitlab is the GitLab source plugin: commits, issues, merge
// requests, pipelines and releases of gitlab.com or a self-hosted instance, through
// the official client (gitlab.com/gitlab-org/api/client-go).
package gitlab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"
	"golang.org/x/oauth2"

	"github.com/nous-dev/nous/plugins/internal/hosted"
	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
	"github.com/nous-dev/nous/sdk/redact"
)

// Version is the gitlab plugin's version.
const Version = "0.1.0"

// Source is the GitLab sdk.Source. Build it with New; Configure it before Fetch.
type Source struct {
	deps hosted.Deps

	mu     sync.RWMutex
	client *gl.Client
	cfg    Config
}

// Option customises a Source.
type Option = hosted.Option

// The options every hosted source takes: WithEnv replaces os.Getenv for the
// GITLAB_URL and GITLAB_TOKEN fallbacks; WithHTTPClient, WithRetry and
// WithLogger set the HTTP client, the retry policy and the logger (see
// package hosted).
var (
	WithEnv        = hosted.WithEnv
	WithHTTPClient = hosted.WithHTTPClient
	WithRetry      = hosted.WithRetry
	WithLogger     = hosted.WithLogger
)

// New returns an unconfigured GitLab source.
func New(opts ...Option) *Source { return &Source{deps: hosted.New(opts)} }

// Describe says what the source returns and which filters it understands.
// Pull requests are listed as merge requests, so the engine can bind a
// pull-request retrieval here; the records say merge_request.
func (s *Source) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{
		Name:         "gitlab",
		Version:      Version,
		SDKVersion:   sdk.Version,
		Kinds:        []string{sdk.KindCommit, sdk.KindIssue, sdk.KindMergeRequest, sdk.KindPullRequest, sdk.KindPipeline, sdk.KindRelease},
		Filters:      append([]string(nil), Filters...),
		ConfigSchema: config.Schema[Config](),
	}, nil
}

// Configure reads the config map (falling back to GITLAB_URL and
// GITLAB_TOKEN) and builds the client. Problems come back as diagnostics;
// with any error diagnostic the source stays unconfigured.
func (s *Source) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := parseConfig(raw, s.deps.Getenv)
	if diags.HasErrors() {
		return diags, nil
	}
	client, err := s.newClient(cfg)
	if err != nil {
		red := redact.New(cfg.Token)
		return append(diags, config.Error("base_url", "gitlab: cannot build the client", red.String(err.Error()))), nil
	}
	s.mu.Lock()
	s.client, s.cfg = client, cfg
	s.mu.Unlock()
	return diags, nil
}

// newClient builds the GitLab client with its own retries off: the policy
// wraps every call instead, because the client's backoff ignores Retry-After.
func (s *Source) newClient(cfg Config) (*gl.Client, error) {
	opts := []gl.ClientOptionFunc{
		gl.WithBaseURL(cfg.BaseURL),
		gl.WithoutRetries(),
		gl.WithUserAgent("nous-gitlab/" + Version),
		gl.WithURLWarningLogger(slog.New(redact.New(cfg.Token).Handler(s.deps.Logger.Handler()))),
		gl.WithInterceptor(keepErrorBodies),
	}
	// Always the hardened client (a copy: the GitLab client wraps its
	// transport); a test's client keeps its transport under the same policy.
	opts = append(opts, gl.WithHTTPClient(httpclient.Harden(s.deps.HTTPClient, httpclient.Options{
		MaxBody:    int64(cfg.MaxResponseBytes),
		MaxBodyKey: httpclient.MaxBodyConfigKey,
	})))
	if cfg.Auth == AuthOAuth {
		ts := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: cfg.Token, TokenType: "Bearer"})
		return gl.NewAuthSourceClient(gl.OAuthTokenSource{TokenSource: ts}, opts...)
	}
	return gl.NewClient(cfg.Token, opts...)
}

// errLimit stops paging once the request's limit is reached.
var errLimit = errors.New("limit reached")

// Fetch streams the records req asks for, project by project.
func (s *Source) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) (err error) {
	s.mu.RLock()
	client, cfg := s.client, s.cfg
	s.mu.RUnlock()
	red := redact.New(cfg.Token)
	logger := slog.New(red.Handler(s.deps.Logger.Handler()))
	defer func() {
		if r := recover(); r != nil {
			err = &sdk.Error{Kind: sdk.KindUnknown, Message: red.String(fmt.Sprintf("gitlab: internal error: %v", r))}
		}
	}()
	if client == nil {
		return sdk.Errorf(sdk.KindBadConfig, "gitlab: not configured (call Configure with a token first)")
	}
	q, err := parseRequest(req, cfg.Projects)
	if err != nil {
		return err
	}

	run := &fetchRun{client: client, policy: s.deps.Policy, logger: logger, red: red, q: q, emit: emit, seen: map[string]bool{}}
	for _, sc := range q.scopes() {
		if err := run.scope(ctx, sc); err != nil {
			if errors.Is(err, errLimit) {
				return nil
			}
			if run.emitErr != nil {
				return run.emitErr
			}
			logger.Warn("gitlab fetch failed", "kind", q.kind, "scope", describeScope(sc), "error", err)
			return red.Error(err)
		}
	}
	return nil
}

// fetchRun is one Fetch call's state: dedupe across scopes, the limit and
// the caller's emit error, which must come back unchanged.
type fetchRun struct {
	client  *gl.Client
	policy  retry.Policy
	logger  *slog.Logger // masks the token
	red     *redact.Redactor
	q       query
	emit    func(sdk.Record) error
	seen    map[string]bool
	emitted int
	emitErr error
}

func (r *fetchRun) scope(ctx context.Context, sc scope) error {
	pageSize := 0
	if r.q.limit > 0 && r.q.exact() {
		pageSize = r.q.limit - r.emitted
	}
	r.policy.Notify = func(attempt int, wait time.Duration, err error) {
		r.logger.Info("gitlab: retrying", "project", sc.project, "attempt", attempt, "wait", wait, "error", err)
	}
	start := time.Now()
	var err error
	switch r.q.kind {
	case sdk.KindCommit:
		err = r.fetchCommits(ctx, sc, pageSize)
	case sdk.KindIssue:
		err = r.fetchIssues(ctx, sc, pageSize)
	case sdk.KindMergeRequest:
		err = r.fetchMergeRequests(ctx, sc, pageSize)
	case sdk.KindPipeline:
		err = r.fetchPipelines(ctx, sc, pageSize)
	case sdk.KindRelease:
		err = r.fetchReleases(ctx, sc, pageSize)
	}
	r.logger.Debug("gitlab: fetched", "kind", r.q.kind, "scope", describeScope(sc), "records", r.emitted, "took", time.Since(start))
	return err
}

// out dedupes, redacts and counts records on their way to emit.
func (r *fetchRun) out(rec sdk.Record) error {
	key := rec.ID
	if sha, ok := rec.Fields["sha"].(string); ok && rec.Kind == sdk.KindCommit {
		key = sha // short IDs collide in large histories
	}
	if r.seen[key] {
		return nil
	}
	r.seen[key] = true
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
