package engine_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vocabulary is an in-memory Grounding: what one repository-like source
// knows. It answers like the git source: paths by exact path or base name,
// authors by substring of "Name <email>", refs by name.
type vocabulary struct {
	paths   []string
	authors []string // "Name <email>"
	refs    map[string]time.Time
	before  map[string]string // the tag before a ref ("": none, its first release)
	project string
	fold    bool // base names match in any case, as a loose source answers
	filters []string
	latest  time.Time
	err     error // returned for every call, as an unconfigured source does
	calls   int
}

func (v *vocabulary) Ground(_ context.Context, _ string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	v.calls++
	if v.err != nil {
		return sdk.GroundResponse{}, v.err
	}
	resp := sdk.GroundResponse{Filters: v.filters, Coverage: sdk.Coverage{Latest: v.latest, Name: v.project}}
	for _, t := range req.Terms {
		g := sdk.GroundedTerm{Kind: t.Kind, Value: t.Value}
		switch t.Kind {
		case sdk.TermPath:
			want := strings.TrimSuffix(t.Value, "/")
			for _, p := range v.paths {
				base := p[strings.LastIndexByte(p, '/')+1:]
				if p == want || base == want || v.fold && strings.EqualFold(base, want) {
					g.Known, g.Canonical = true, append(g.Canonical, p)
				}
			}
		case sdk.TermAuthor:
			// One person is the value as asked; several are their names.
			var names []string
			for _, a := range v.authors {
				if name, _, _ := strings.Cut(a, " <"); strings.Contains(strings.ToLower(a), strings.ToLower(t.Value)) && !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
			g.Known, g.Canonical = len(names) > 0, names
			if len(names) == 1 {
				g.Canonical = []string{t.Value}
			}
		case sdk.TermRef:
			if when, ok := v.refs[t.Value]; ok {
				g.Known, g.Time = true, when
			}
			if prev, ok := v.before[strings.TrimPrefix(t.Value, sdk.RefBefore)]; ok && strings.HasPrefix(t.Value, sdk.RefBefore) {
				g.Known, g.Canonical = true, []string{prev}
			}
			if !g.Known {
				g.Note = fmt.Sprintf("no tag or branch %q", strings.TrimPrefix(t.Value, sdk.RefBefore))
			}
		case sdk.TermProject:
			g.Known = strings.EqualFold(t.Value, v.project) || strings.HasSuffix(strings.ToLower(v.project), "/"+strings.ToLower(t.Value))
		}
		resp.Terms = append(resp.Terms, g)
	}
	return resp, nil
}

func hclRepo() *vocabulary {
	return &vocabulary{
		paths:   []string{"hclwrite", "hclsyntax", "plumbing/format/packfile", "README.md", "docs"},
		authors: []string{"Radek Simko <radek.simko@gmail.com>", "Martin Atkins <mart@degeneration.co.uk>"},
		refs:    map[string]time.Time{"v1.17.0": time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), "v1.0.0": time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), "main": {}},
		before:  map[string]string{"v1.17.0": "v1.0.0", "v1.0.0": ""},
		project: "hashicorp/hcl",
		filters: []string{"paths", "authors", "revisions", "topics", "with_stats"},
		latest:  time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC),
	}
}

var clock = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) // a Tuesday

func TestInterpretGroundsConstraints(t *testing.T) {
	p := defaultPlanner(t)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		query       string
		constraints map[string][]string // entity → values applied
		dates       []time.Time         // since, until (zero: unbounded)
		unknown     []string
		unapplied   []string
	}{
		{query: "what changed in hclwrite since 2024-01-01?",
			constraints: map[string][]string{"paths": {"hclwrite"}}, dates: []time.Time{day(2024, 1, 1), {}}},
		{query: "which commits touched hclsyntax/ in Q1 2024?",
			constraints: map[string][]string{"paths": {"hclsyntax"}}, dates: []time.Time{day(2024, 1, 1), day(2024, 4, 1)}},
		{query: "who worked on packfile last week?",
			constraints: map[string][]string{"paths": {"plumbing/format/packfile"}}, dates: []time.Time{day(2026, 11, 16), day(2026, 11, 23)}},
		{query: "what did Radek Simko commit in 2025?",
			constraints: map[string][]string{"authors": {"Radek Simko"}}, dates: []time.Time{day(2025, 1, 1), day(2026, 1, 1)}},
		// A named author no source knows stays a filter (missing): the answer is about them, not everyone.
		{query: "commits by Nobody Here last month", constraints: map[string][]string{"authors": {"Nobody Here"}}, dates: []time.Time{day(2026, 10, 1), day(2026, 11, 1)}},
		{query: "what changed since the v1.17.0 release?", constraints: map[string][]string{"revisions": {"v1.17.0.."}}},
		{query: "commits between v1.0.0 and v1.17.0", constraints: map[string][]string{"revisions": {"v1.0.0..v1.17.0"}}},
		{query: "what changed since v9.9.9?", unknown: []string{"v9.9.9.."}},
		// A release's own changes: from the tag before it; the first release is all of its history.
		{query: "what changed in v1.17.0?", constraints: map[string][]string{"revisions": {"v1.0.0..v1.17.0"}}},
		{query: "what changed in release 1.0.0?", unknown: []string{"1.0.0"}}, // this vocabulary knows v1.0.0 only by its name
		{query: "what changed in v1.0.0?", constraints: map[string][]string{"revisions": {"v1.0.0"}}},
		{query: "what changed in v9.9.9?", unknown: []string{"v9.9.9", "v9.9.9"}}, // as a path, and as a release said by its name
		{query: "commits about packfile in 2024", constraints: map[string][]string{"topics": {"packfile"}}, dates: []time.Time{day(2024, 1, 1), day(2025, 1, 1)}},
		{query: "what changed in payments last week?", unknown: []string{"payments"}, dates: []time.Time{day(2026, 11, 16), day(2026, 11, 23)}},
		// The repository itself: satisfied, nothing to filter.
		{query: "what changed in the hcl repo yesterday?", constraints: map[string][]string{"projects": {"hcl"}}, dates: []time.Time{day(2026, 11, 23), day(2026, 11, 24)}},
		// "Q1 2024" is a date, not a project Q1.
		{query: "how many commits were made in Q1 2024?", dates: []time.Time{day(2024, 1, 1), day(2024, 4, 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			plan, err := p.Interpret(context.Background(), engine.Request{Query: tt.query}, hclRepo(), clock)
			require.NoError(t, err)
			in := plan.Interpretation
			require.NotNil(t, in)
			assert.True(t, in.Grounded)
			got := map[string][]string{}
			for _, c := range in.Constraints {
				got[c.Key] = append(got[c.Key], c.Value)
			}
			want := tt.constraints
			if want == nil {
				want = map[string][]string{}
			}
			assert.Equal(t, want, got, "constraints")
			var unknown []string
			for _, c := range in.Unknown {
				unknown = append(unknown, c.Value)
				assert.NotEmpty(t, c.Reason)
			}
			assert.Equal(t, tt.unknown, unknown, "unknown")
			var unapplied []string
			for _, c := range in.Unapplied {
				unapplied = append(unapplied, c.Value)
			}
			assert.Equal(t, tt.unapplied, unapplied, "unapplied")
			if tt.dates == nil {
				assert.Nil(t, in.Dates)
			} else {
				require.NotNil(t, in.Dates)
				assert.Equal(t, tt.dates[0], in.Dates.Since, "since")
				assert.Equal(t, tt.dates[1], in.Dates.Until, "until")
			}
			// Every applied constraint reached the commit retrieval's filters.
			for key, values := range tt.constraints {
				if key == "projects" {
					continue
				}
				assert.Equal(t, values, filterValues(plan, key), "filter %s", key)
			}
			for _, u := range tt.unknown {
				for _, rp := range plan.Retrieval.Plans {
					for _, f := range rp.Filters {
						assert.NotContains(t, f.Values, u, "an unknown candidate must not be sent to the source")
					}
				}
			}
		})
	}
}

func filterValues(plan *engine.Plan, key string) []string {
	for _, rp := range plan.Retrieval.Plans {
		for _, f := range rp.Filters {
			if f.Key == key {
				return f.Values
			}
		}
	}
	return nil
}

func TestInterpretUnappliedFilter(t *testing.T) {
	v := hclRepo()
	v.filters = []string{"paths"} // a source that cannot filter by author
	plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: "commits by Radek Simko touching hclwrite"}, v, clock)
	require.NoError(t, err)
	in := plan.Interpretation
	require.Len(t, in.Unapplied, 1)
	assert.Equal(t, "authors", in.Unapplied[0].Key)
	assert.Equal(t, "gitlab", in.Unapplied[0].Source)
	assert.Contains(t, in.Unapplied[0].Reason, "cannot filter by authors")
}

func TestInterpretSourceErrorKeepsCandidates(t *testing.T) {
	v := hclRepo()
	v.err = sdk.Errorf(sdk.KindBadConfig, "source %q is not configured", "gitlab")
	plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: "what changed in hclwrite last week?"}, v, clock)
	require.NoError(t, err)
	in := plan.Interpretation
	require.Len(t, in.Sources, 1)
	assert.Contains(t, in.Sources[0].Error, "not configured")
	assert.Equal(t, []string{"hclwrite"}, filterValues(plan, "paths"), "an ungrounded candidate is kept as written")
	assert.Empty(t, in.Unknown)
}

func TestInterpretWithoutGrounding(t *testing.T) {
	plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: "which commits were pushed last week?"}, nil, clock)
	require.NoError(t, err)
	in := plan.Interpretation
	assert.False(t, in.Grounded)
	require.NotNil(t, in.Dates)
	assert.Equal(t, []string{"last week"}, in.Dates.Phrases)
}

func TestInterpretDatesAreTheQuestions(t *testing.T) {
	// The status intent fixes "last week" for its commits: that is not a
	// period the question gave, so not one every intent applies.
	plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: "what is the status of the project? show closed issues"}, nil, clock)
	require.NoError(t, err)
	require.Equal(t, []string{"last week"}, filterValues(plan, "dates"), "the status intent keeps its fixed period")
	assert.Nil(t, plan.Interpretation.Dates)
}

func TestInterpretMatchesPlanWhenNothingToGround(t *testing.T) {
	// A question with nothing to ground is planned exactly as Plan does.
	p := defaultPlanner(t)
	req := engine.Request{Query: "which commits were pushed last week?"}
	want := plan(t, p, req)
	v := hclRepo()
	got, err := p.Interpret(context.Background(), req, v, clock)
	require.NoError(t, err)
	got.Interpretation = nil
	assert.Equal(t, want, got)
	assert.Equal(t, 1, v.calls, "one Ground call per source")
}

func TestInterpretCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := defaultPlanner(t).Interpret(ctx, engine.Request{Query: "what changed?"}, hclRepo(), clock)
	assert.True(t, errors.Is(err, context.Canceled))
}

func BenchmarkInterpretGrounded(b *testing.B) {
	p := defaultPlanner(b)
	v := hclRepo()
	queries := []string{
		"what changed in hclwrite since 2024-01-01?",
		"what did Radek Simko commit in Q1 2025?",
		"what changed since the v1.17.0 release?",
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := p.Interpret(ctx, engine.Request{Query: queries[i%len(queries)]}, v, clock); err != nil {
			b.Fatal(err)
		}
	}
}

func TestInterpretPartOfAKnownPathIsNotUnknown(t *testing.T) {
	v := hclRepo()
	v.paths = append(v.paths, "CHANGELOG.md")
	plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: "what changed in CHANGELOG.md this year?"}, v, clock)
	require.NoError(t, err)
	assert.Empty(t, plan.Interpretation.Unknown, "CHANGELOG (a project candidate) is part of the known path")
	assert.Equal(t, []string{"CHANGELOG.md"}, filterValues(plan, "paths"))
}

// TestInterpretMissingPath: a path the question names that the source does
// not have is still the question's subject: it stays a filter (the answer
// is about it, and empty) and is reported missing, never dropped as an
// unknown project; a real file or directory is grounded as before.
func TestInterpretMissingPath(t *testing.T) {
	for _, tt := range []struct {
		query   string
		paths   []string
		missing []string
	}{
		{query: "who contributed to vm/nosuchfile.go?", paths: []string{"vm/nosuchfile.go"}, missing: []string{"vm/nosuchfile.go"}},
		{query: "what changed in nosuch.go last week?", paths: []string{"nosuch.go"}, missing: []string{"nosuch.go"}},
		{query: "who contributed to plumbing/format/packfile?", paths: []string{"plumbing/format/packfile"}},
		{query: "which commits touched docs/?", paths: []string{"docs"}},
		{query: "who contributed to README.md?", paths: []string{"README.md"}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: tt.query}, hclRepo(), clock)
			require.NoError(t, err)
			in := plan.Interpretation
			assert.Equal(t, tt.paths, filterValues(plan, "paths"))
			var missing []string
			for _, c := range in.Missing {
				missing = append(missing, c.Value)
				assert.Equal(t, "paths", c.Key)
				assert.NotEmpty(t, c.Reason)
			}
			assert.Equal(t, tt.missing, missing, "missing")
			assert.Empty(t, in.Unknown, "not dropped as an unknown project")
		})
	}
}

// TestInterpretRepositoryName: a bare word naming the repository a source
// holds (its Coverage.Name, or that name's last component) is the whole
// repository, whatever paths the source matches it to; a real directory
// still filters, and a word written as a path stays a path.
func TestInterpretRepositoryName(t *testing.T) {
	gitRepo := &vocabulary{paths: []string{"perl/Git", "Documentation", "builtin"}, project: "git/git", fold: true,
		filters: hclRepo().filters, latest: hclRepo().latest}
	exprRepo := &vocabulary{paths: []string{"checker", "expr.go", "vm"}, project: "expr-lang/expr",
		filters: hclRepo().filters, latest: hclRepo().latest}
	for _, tt := range []struct {
		query   string
		source  *vocabulary
		paths   []string // the paths filter
		project string   // the word read as the repository itself
		missing []string
	}{
		{query: "who contributed to git in 2025?", source: gitRepo, project: "git"},
		{query: "who contributed to GIT in 2025?", source: gitRepo, project: "GIT"},
		{query: "who contributed to expr in 2025?", source: exprRepo, project: "expr"},
		{query: "who works on checker?", source: exprRepo, paths: []string{"checker"}},
		{query: "what changed in hcl last month?", source: hclRepo(), project: "hcl"},
		{query: "commits touching hclwrite in 2025", source: hclRepo(), paths: []string{"hclwrite"}},
		{query: "commits touching hcl/ in 2025", source: hclRepo(), paths: []string{"hcl/"}, missing: []string{"hcl/"}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: tt.query}, tt.source, clock)
			require.NoError(t, err)
			in := plan.Interpretation
			assert.Equal(t, tt.paths, filterValues(plan, "paths"))
			assert.Empty(t, in.Unknown, "the repository's name is not an unknown path")
			var missing []string
			for _, c := range in.Missing {
				missing = append(missing, c.Value)
			}
			assert.Equal(t, tt.missing, missing, "missing")
			var projects []string
			for _, c := range in.Constraints {
				if c.Key == "projects" {
					projects = append(projects, c.Value)
				}
				if c.Key == "paths" {
					assert.Empty(t, c.Reason, "%s: a path the question names is not ambiguous", c.Value)
				}
			}
			if tt.project == "" {
				assert.Empty(t, projects)
			} else {
				assert.Equal(t, []string{tt.project}, projects, "read as the repository itself")
			}
		})
	}
}

// TestInterpretAmbiguousPath: when a source narrows a bare word to paths
// it matched only loosely (another case, or several paths), the
// constraints keep the question's phrase and say why it is ambiguous, so
// the report can say so; a unique exact-case name is only expanded.
func TestInterpretAmbiguousPath(t *testing.T) {
	loose := hclRepo()
	loose.fold = true
	loose.paths = append(loose.paths, "perl/Git", "a/util", "b/util")
	for _, tt := range []struct {
		query  string
		paths  []string
		phrase string
		reason string // "": not ambiguous
	}{
		{query: "who contributed to git in 2025?", paths: []string{"perl/Git"}, phrase: "git", reason: "in another case"},
		{query: "what changed in util last week?", paths: []string{"a/util", "b/util"}, phrase: "util", reason: "2 paths"},
		{query: "who worked on packfile last week?", paths: []string{"plumbing/format/packfile"}, phrase: "packfile"},
		{query: "what changed in hclwrite since 2024-01-01?", paths: []string{"hclwrite"}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: tt.query}, loose, clock)
			require.NoError(t, err)
			assert.Equal(t, tt.paths, filterValues(plan, "paths"))
			var got []engine.Constraint
			for _, c := range plan.Interpretation.Constraints {
				if c.Key == "paths" {
					got = append(got, c)
				}
			}
			require.Len(t, got, len(tt.paths))
			for i, c := range got {
				assert.Equal(t, tt.paths[i], c.Value)
				assert.Equal(t, tt.phrase, c.Phrase, "the question's word")
				if tt.reason == "" {
					assert.Empty(t, c.Reason)
				} else {
					assert.Contains(t, c.Reason, tt.reason)
					assert.Contains(t, c.Reason, tt.phrase)
				}
			}
		})
	}
}

// TestInterpretWhatAboutNamesAPathOrATopic: "what about X" is a path or an
// author when the source knows X (then it is not also a topic), else a topic.
func TestInterpretWhatAboutNamesAPathOrATopic(t *testing.T) {
	tests := []struct {
		query                  string
		paths, topics, authors []string
	}{
		{"what about hclsyntax?", []string{"hclsyntax"}, nil, nil},
		{"and how about the hclwrite?", []string{"hclwrite"}, nil, nil},
		{"what about heredoc?", nil, []string{"heredoc"}, nil},
		{"commits about hclsyntax", nil, []string{"hclsyntax"}, nil},
		{"what about Radek Simko?", nil, nil, []string{"Radek Simko"}}, // the author, not also the topic "Radek"
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: tt.query}, hclRepo(), clock)
			require.NoError(t, err)
			assert.Equal(t, tt.paths, plan.Reasoning.Entities["paths"])
			assert.Equal(t, tt.topics, plan.Reasoning.Entities["topics"])
			assert.Equal(t, tt.authors, plan.Reasoning.Entities["authors"])
		})
	}
}

// TestUnknownRefSaysWhy: a revision no source knows is dropped, and the
// reason carries the source's note (the git source names its greatest
// tags there), for the caveat.
func TestUnknownRefSaysWhy(t *testing.T) {
	plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: "what changed since v9.9.9?"}, hclRepo(), clock)
	require.NoError(t, err)
	require.Len(t, plan.Interpretation.Unknown, 1)
	assert.Equal(t, `no source of the plan knows "v9.9.9.." as a ref: no tag or branch "v9.9.9"`, plan.Interpretation.Unknown[0].Reason)
}
