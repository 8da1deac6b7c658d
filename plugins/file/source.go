// Package file is the file source: records from JSON, JSON-lines or CSV
// files (issues, documents, news items with a source name for the tier
// table). It is the default issue source when no YouTrack token is set.
//
// A malformed row fails the fetch with an error naming file:line and what
// was expected, rather than being skipped: the data is local, so fixing it
// is easy, and an answer silently missing rows would be wrong.
package file

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/nous-dev/nous/sdk"
	sdkconfig "github.com/nous-dev/nous/sdk/config"
)

// Version is the file source's version.
const Version = "0.1.0"

// checkEvery is how many rows a fetch reads between context checks.
const checkEvery = 1024

// Source reads records from files. Use New, then Configure.
type Source struct {
	loc *time.Location // zone of times written without one

	mu  sync.RWMutex
	cfg *config // nil until configured without errors

	rows rowCache // the last file read, kept while it is unchanged
}

// New returns an unconfigured file source that reads zone-less times in
// the local time zone, like the date expressions of the dates filter.
func New() *Source { return &Source{loc: time.Local} }

// Describe says what the source returns and which filters it understands:
// documentation (format markdown) is records of its configured kind only.
func (s *Source) Describe(context.Context) (sdk.SourceInfo, error) {
	kinds := []string{sdk.KindDocument, sdk.KindIssue}
	if cfg, err := s.config(); err == nil && cfg.Format == FormatMarkdown {
		kinds = []string{cfg.Kind}
	}
	return sdk.SourceInfo{
		Name:         "file",
		Version:      Version,
		SDKVersion:   sdk.Version,
		Kinds:        kinds,
		Filters:      append([]string(nil), filterKeys...),
		ConfigSchema: sdkconfig.Schema[config](),
	}, nil
}

// Configure decodes the config and checks that its path names readable
// files of a known format. A relative path is relative to the rules file
// that configures the source (sdk.ConfigDir), or to the working directory
// for rules that are not files.
func (s *Source) Configure(ctx context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := decodeConfig(raw)
	cfg.Path = sdkconfig.RelativeTo(sdk.ConfigDir(ctx), cfg.Path)
	cfg.shown = shownPath(cfg.Path)
	if !diags.HasErrors() {
		if _, err := resolve(cfg); err != nil {
			diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: err.Error(), Path: "path"})
		}
	}
	s.rows.forget() // rows of the files of the configuration replaced
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg = nil
	if !diags.HasErrors() {
		s.cfg = &cfg
	}
	return diags, nil
}

// Fetch reads every file in order and emits the rows passing the filters,
// at most req.Limit of them. Files are re-read on every fetch (the decoded
// rows of an unchanged file are kept), so edits show up without a restart.
func (s *Source) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	cfg, err := s.config()
	if err != nil {
		return err
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && !req.Since.Before(req.Until) {
		return sdk.Errorf(sdk.KindBadRequest, "file: since %s is not before until %s", req.Since.Format(time.RFC3339), req.Until.Format(time.RFC3339))
	}
	f := newFilter(req)
	emitted := 0
	err = eachRecord(ctx, *cfg, s.loc, &s.rows, func(rec sdk.Record) error {
		if !f.match(&rec) {
			return nil
		}
		if err := emit(clone(rec)); err != nil { // rec may be kept
			return err
		}
		if emitted++; req.Limit > 0 && emitted >= req.Limit {
			return errLimit
		}
		return nil
	})
	if errors.Is(err, errLimit) {
		return nil
	}
	return err
}

// config is the configuration Fetch and Ground run with.
func (s *Source) config() (*config, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.cfg == nil {
		return nil, sdk.Errorf(sdk.KindBadConfig, "file: source is not configured (or its configuration has errors)")
	}
	return s.cfg, nil
}

// errLimit stops a fetch that has emitted its limit.
var errLimit = errors.New("limit reached")

// eachRecord reads every file of cfg in order and calls fn with each row's
// record. fn's error stops it and comes back as is; a context that ends or
// a malformed row is an *sdk.Error naming where it stopped.
// Rows come from cache while their file is unchanged (nil: no cache).
func eachRecord(ctx context.Context, cfg config, loc *time.Location, cache *rowCache, fn func(sdk.Record) error) error {
	inputs, err := resolve(cfg)
	if err != nil {
		return err
	}
	m := newMapper(cfg, loc)
	var fnErr, ctxErr error
	rows := 0
	for _, in := range inputs {
		err := in.decodeCached(ctx, cache, m, func(_ int, rec sdk.Record) error {
			if rows++; rows%checkEvery == 0 {
				if ctxErr = ctx.Err(); ctxErr != nil {
					return ctxErr
				}
			}
			fnErr = fn(rec)
			return fnErr
		})
		switch {
		case err == nil:
		case fnErr != nil:
			return fnErr
		case ctxErr != nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			if ctxErr == nil {
				ctxErr = ctx.Err()
			}
			return sdk.Errorf(sdk.KindDeadline, "file: stopped in %s after %d rows: %w", in.name, rows, ctxErr)
		default:
			var se *sdk.Error
			if errors.As(err, &se) {
				return err
			}
			return sdk.Errorf(sdk.KindBadConfig, "file: %w", err)
		}
	}
	return nil
}
