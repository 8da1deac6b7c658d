package mcptools

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/timerange"
)

// Bounds of one fetch.
const (
	defaultFetchLimit = 20
	maxFetchLimit     = 200
	fetchTimeout      = time.Minute // as `nous fetch`'s default --timeout
)

var fetchTool = mcp.Tool{
	Name:  "fetch",
	Title: "Fetch records from one of nous's sources",
	Description: `Fetches raw records (commits, merge requests, issues, documents) from one source the
rules configure, as ` + "`nous fetch`" + ` does, with filters and a time range: the evidence
ask would read, without any reasoning on it. Use it to check what a source returns, or
to read records ask's report points to.

The source is a source block's name in the rules (the defaults: gitlab, which reads the
local git repository when no GitLab token is set, youtrack, github, docs, generic); an
unknown name is answered with the names defined. Filters are the source's own (for the git history:
author, path, ref, revisions, query). At most ` + fmt.Sprint(maxFetchLimit) + ` records, ` + fmt.Sprint(defaultFetchLimit) + ` by default; one minute at most.
The text content lists the records one a line; the structured content has them whole.`,
	Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
}

// FetchInput is the fetch tool's input.
type FetchInput struct {
	Source  string              `json:"source" jsonschema:"the name of a source block of the rules, e.g. gitlab (the local git history by default) or youtrack"`
	Kind    string              `json:"kind,omitempty" jsonschema:"the record kind to ask for (commit, merge_request, issue, document…); empty for the source's default"`
	Filters map[string][]string `json:"filters,omitempty" jsonschema:"the source's filters by name, each with one or more values, e.g. {\"path\": [\"hclsyntax\"], \"author\": [\"alice\"]}"`
	Dates   string              `json:"dates,omitempty" jsonschema:"the time range, as the rules write dates: today, yesterday, this week, last week, this month, last month, last N days, 2024-01-15 or 2024-01-01..2024-01-31"`
	Limit   int                 `json:"limit,omitempty" jsonschema:"at most this many records, 1 to 200 (20 when 0 or absent)"`
}

// FetchOutput is the fetch tool's structured result.
type FetchOutput struct {
	Source  string       `json:"source" jsonschema:"the source fetched from"`
	Records []sdk.Record `json:"records" jsonschema:"the records, masked: id, source, kind, title, body, url, author, time, tier and the source's own fields"`
}

// errFull stops a fetch that has all the records it may return.
var errFull = errors.New("limit reached")

// fetch reads records from a source of the current snapshot's plugins.
func (t tools) fetch(ctx context.Context, _ *mcp.CallToolRequest, in FetchInput) (*mcp.CallToolResult, FetchOutput, error) {
	req, err := fetchRequest(in, t.now())
	if err != nil {
		return nil, FetchOutput{}, err
	}
	snap, release := t.srv.Snapshot()
	defer release()
	if snap.Rules.Source(in.Source) == nil {
		return nil, FetchOutput{}, unknownSource(in.Source, snap)
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req = engine.WithStats(ctx, snap.Plugins, in.Source, req)
	out := FetchOutput{Source: in.Source, Records: []sdk.Record{}}
	err = snap.Plugins.Fetch(ctx, in.Source, req, func(r sdk.Record) error {
		if len(out.Records) == req.Limit {
			return errFull
		}
		out.Records = append(out.Records, snap.Redactor.Record(r))
		return nil
	})
	if err != nil && !errors.Is(err, errFull) {
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no result within %s: %w", fetchTimeout, err)
		}
		return nil, FetchOutput{}, fmt.Errorf("fetch %s: %w", in.Source, snap.Redactor.Error(err))
	}
	return text(recordLines(out)), out, nil
}

// fetchRequest is in as the sources take it; dates become Since/Until.
func fetchRequest(in FetchInput, now time.Time) (sdk.FetchRequest, error) {
	switch {
	case strings.TrimSpace(in.Source) == "":
		return sdk.FetchRequest{}, &server.RequestError{Field: "source", Msg: "empty: want the name of a source block of the rules"}
	case in.Limit < 0 || in.Limit > maxFetchLimit:
		return sdk.FetchRequest{}, &server.RequestError{Field: "limit", Msg: fmt.Sprintf("%d: want 1 to %d (0 for %d)", in.Limit, maxFetchLimit, defaultFetchLimit)}
	}
	req := sdk.FetchRequest{Kind: in.Kind, Limit: in.Limit, Filters: in.Filters}
	if req.Limit == 0 {
		req.Limit = defaultFetchLimit
	}
	for _, key := range slices.Sorted(maps.Keys(in.Filters)) {
		if strings.TrimSpace(key) == "" {
			return sdk.FetchRequest{}, &server.RequestError{Field: "filters", Msg: "a filter has an empty name"}
		}
		for _, v := range in.Filters[key] {
			if strings.TrimSpace(v) == "" {
				// As `nous fetch`: an empty value would match nothing or be ignored.
				return sdk.FetchRequest{}, &server.RequestError{Field: "filters." + key, Msg: "a value is empty"}
			}
		}
	}
	if in.Dates != "" {
		rg, err := timerange.Resolve([]string{in.Dates}, now)
		if err != nil {
			return sdk.FetchRequest{}, &server.RequestError{Field: "dates", Msg: err.Error()}
		}
		req.Since, req.Until = rg.Since, rg.Until
	}
	return req, nil
}

// unknownSource names the sources the rules define.
func unknownSource(name string, snap *server.Snapshot) error {
	names := make([]string, 0, len(snap.Rules.Sources))
	for _, s := range snap.Rules.Sources {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return &server.RequestError{Field: "source", Msg: fmt.Sprintf("%q is not a source of the rules; they define: %s", name, strings.Join(names, ", "))}
}

// recordLines is the records one a line: time, ID, author and title.
func recordLines(out FetchOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d record(s) from %s\n", len(out.Records), out.Source)
	for _, r := range out.Records {
		b.WriteString("- ")
		if !r.Time.IsZero() {
			b.WriteString(r.Time.Format("2006-01-02 15:04 "))
		}
		fmt.Fprintf(&b, "%s %s", r.Kind, oneLine(r.ID))
		if r.Author != "" {
			b.WriteString(" by " + oneLine(r.Author))
		}
		if r.Title != "" {
			b.WriteString(": " + oneLine(r.Title))
		}
		if r.URL != "" {
			b.WriteString(" <" + oneLine(r.URL) + ">")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// oneLine keeps a value on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
