package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/nous-dev/nous/sdk/timerange"
	"github.com/spf13/cobra"
)

// datesFilter is the filter key resolved into FetchRequest.Since/Until.
const datesFilter = "dates"

// fetchOptions are the flags of `nous fetch`.
type fetchOptions struct {
	filters []string // key=value, repeatable
	limit   int
	kind    string
	format  string
	timeout time.Duration // 0: no deadline
}

// defaultFetchTimeout bounds a fetch unless --timeout says otherwise.
const defaultFetchTimeout = 60 * time.Second

func (a *app) fetchCommand() *cobra.Command {
	var opts fetchOptions
	cmd := &cobra.Command{
		Use:   "fetch SOURCE",
		Short: "Fetch records from one source as the rules configure it",
		Long: `Fetch runs one source of the rules (a source block's name, e.g. gitlab or
youtrack) with the given filters and prints its records: the way to check a
source's configuration before asking questions.

A dates filter takes the date expressions of the rules (today, yesterday,
this week, last week, this month, last month, last N days, 2024-01-15,
2024-01-01..2024-01-31) in the local time zone; several are joined.
Repeating --filter with the same key adds values.

--timeout bounds the whole fetch, plugin start included (default 60s; 0
for none): a host that accepts and never answers fails the fetch with a
message naming the timeout. Each HTTP request also has its own bounds
(see "Hosts nous talks to" in the README).`,
		Example: `  nous fetch gitlab --filter dates="last 7 days" --filter path=plugins --limit 20 --timeout 2m
  nous fetch youtrack --filter projects=PAY --filter statuses=open --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.fetch(cmd.Context(), args[0], opts, time.Now())
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.filters, "filter", nil, "filter as key=value (repeatable; dates=EXPR sets the time range)")
	f.IntVar(&opts.limit, "limit", 0, "at most this many records (0: the source's own limit)")
	f.StringVar(&opts.kind, "kind", "", "record kind to ask for (commit, issue, document, …)")
	f.StringVar(&opts.format, "format", "text", "output format: text, jsonl or json")
	f.DurationVar(&opts.timeout, "timeout", defaultFetchTimeout, "give up after this long, e.g. 30s or 5m (0: no deadline)")
	return cmd
}

// fetch checks the flags, loads the rules and prints the records of source.
func (a *app) fetch(ctx context.Context, source string, opts fetchOptions, now time.Time) error {
	req, err := fetchRequest(opts, now)
	if err != nil {
		return err
	}
	rs, err := a.loadRules()
	if err != nil {
		return err
	}
	if rs.Source(source) == nil {
		names := make([]string, 0, len(rs.Sources))
		for _, s := range rs.Sources {
			names = append(names, s.Name)
		}
		sort.Strings(names)
		if len(names) == 0 {
			return usageError("unknown source %q: the rules define no sources", source)
		}
		return usageError("unknown source %q; the rules define: %s", source, strings.Join(names, ", "))
	}
	red := a.redactor(rs)
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, opts.timeout, &fetchTimeout{opts.timeout})
		defer cancel()
	}
	return a.withPlugins(ctx, rs, red, func(ctx context.Context, m *plugin.Manager) error {
		if opts.format != "text" {
			req = engine.WithStats(ctx, m, source, req)
		}
		return a.printFetch(ctx, maskedSources{m, red}, source, req, opts.format)
	})
}

// fetchTimeout is the cause of a fetch's context ending at --timeout.
type fetchTimeout struct{ after time.Duration }

func (e *fetchTimeout) Error() string {
	return fmt.Sprintf("no result within --timeout %s (raise it, or 0 for none)", e.after)
}

// maskedSources masks the secrets in every record a source emits, as ask's
// report does: a fetched file or commit may quote a token.
type maskedSources struct {
	sources engine.Sources
	red     *redact.Redactor
}

// Fetch fetches from source and hands emit masked records.
func (s maskedSources) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	return s.sources.Fetch(ctx, source, req, func(r sdk.Record) error { return emit(s.red.Record(r)) })
}

// fetchRequest turns the flags into a request; dates become Since/Until.
func fetchRequest(opts fetchOptions, now time.Time) (sdk.FetchRequest, error) {
	switch opts.format {
	case "text", "jsonl", "json":
	default:
		return sdk.FetchRequest{}, usageError("--format: want text, jsonl or json, got %q", opts.format)
	}
	if opts.limit < 0 {
		return sdk.FetchRequest{}, usageError("--limit: want 0 or more, got %d", opts.limit)
	}
	if opts.timeout < 0 {
		return sdk.FetchRequest{}, usageError("--timeout: want a duration of 0 (none) or more, got %s", opts.timeout)
	}
	req := sdk.FetchRequest{Kind: opts.kind, Limit: opts.limit}
	var dates []string
	for _, f := range opts.filters {
		key, value, ok := strings.Cut(f, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return sdk.FetchRequest{}, usageError("--filter %q: want key=value", f)
		}
		if strings.TrimSpace(value) == "" {
			// An empty value would reach the plugin as a filter on "" and
			// be ignored or match nothing; neither is what was meant.
			return sdk.FetchRequest{}, usageError("--filter %q: the value is empty; want %s=VALUE", f, key)
		}
		if key == datesFilter {
			dates = append(dates, value)
			continue
		}
		if req.Filters == nil {
			req.Filters = make(map[string][]string)
		}
		req.Filters[key] = append(req.Filters[key], value)
	}
	if len(dates) > 0 {
		rg, err := timerange.Resolve(dates, now)
		if err != nil {
			return sdk.FetchRequest{}, usageError("--filter dates: %v", err)
		}
		req.Since, req.Until = rg.Since, rg.Until
	}
	return req, nil
}

// printFetch streams the records of source to stdout in format. A source
// failure exits 1 (2 when the source calls the request itself bad) after
// the records already received are printed.
func (a *app) printFetch(ctx context.Context, sources engine.Sources, source string, req sdk.FetchRequest, format string) error {
	out := a.stdout
	if format == "text" {
		out = terminalSafe{out}
	}
	p := newRecordPrinter(out, format)
	n := 0
	err := sources.Fetch(ctx, source, req, func(r sdk.Record) error {
		n++
		return p.print(r)
	})
	if ferr := p.flush(); ferr != nil && err == nil {
		err = ferr
	}
	var timeout *fetchTimeout
	if err != nil && errors.As(context.Cause(ctx), &timeout) {
		// Whatever the plugin made of its cancelled call, the reason is ours.
		err = fmt.Errorf("%v: %w", timeout, err)
	}
	if err != nil {
		code := exitFindings
		if sdk.KindOf(err) == sdk.KindBadRequest {
			code = exitUsage
		}
		return &exitError{Code: code, Err: fmt.Errorf("fetch %s: %w", source, err)}
	}
	if format == "text" {
		fmt.Fprintf(a.stderr, "%d record(s) from %s\n", n, source)
	}
	return nil
}

// recordPrinter writes records as text columns, JSON lines or a JSON array.
type recordPrinter struct {
	format string
	out    io.Writer
	enc    *json.Encoder
	tab    *tabwriter.Writer
	header bool         // text: the header row is written
	all    []sdk.Record // json: the array is written at the end
}

func newRecordPrinter(out io.Writer, format string) *recordPrinter {
	p := &recordPrinter{format: format, out: out}
	switch format {
	case "jsonl":
		p.enc = json.NewEncoder(out)
		p.enc.SetEscapeHTML(false)
	case "text":
		p.tab = tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	}
	return p
}

func (p *recordPrinter) print(r sdk.Record) error {
	switch p.format {
	case "jsonl":
		return p.enc.Encode(r)
	case "json":
		p.all = append(p.all, r)
		return nil
	}
	if !p.header {
		// Written with the first record, so a failed or empty fetch prints no table.
		p.header = true
		fmt.Fprintln(p.tab, "ID\tTIME\tSOURCE\tKIND\tAUTHOR\tTITLE")
	}
	when := ""
	if !r.Time.IsZero() {
		when = r.Time.Format("2006-01-02 15:04")
	}
	_, err := fmt.Fprintf(p.tab, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(r.ID), when, cell(r.Source), cell(r.Kind), cell(r.Author), cell(r.Title))
	return err
}

// cell keeps a value on one line of a text table.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "-"
	}
	return s
}

func (p *recordPrinter) flush() error {
	switch p.format {
	case "json":
		if p.all == nil {
			p.all = []sdk.Record{}
		}
		enc := json.NewEncoder(p.out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(p.all)
	case "text":
		return p.tab.Flush()
	}
	return nil
}
