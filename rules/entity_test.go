package rules

import (
	"testing"

	"github.com/nous-dev/nous/rules/cond"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEntityExtract(t *testing.T) {
	src := `entity "projects" {
  patterns = ["(?i)\\bproject[:\\s]+([\\w./-]+)", "\\b([a-z]+/[a-z]+)\\b"]
  ignore   = ["The", "this"]
}
entity "words" { pattern = "\\b[a-z]{3}\\b" }
entity "revisions" {
  patterns = ["\\bin (?P<release>v\\d+)\\b", "\\bfrom (?P<from>v\\d+) to (?P<to>v\\d+)\\b", "\\bsince (?P<from>v\\d+)\\b", "\\bon (?P<to>\\w+)\\b"]
}
`
	rs, diags := Parse("entities.hcl", []byte(src))
	require.Empty(t, diags, diags.Error())
	require.Len(t, rs.Entities, 3)
	projects, words, revisions := rs.Entities[0], rs.Entities[1], rs.Entities[2]
	assert.Equal(t, []string{"The", "this"}, projects.Ignore)

	tests := []struct {
		name   string
		entity *Entity
		query  string
		dst    []string
		want   []string
	}{
		{"empty query", projects, "", nil, nil},
		{"capture group, first-seen order", projects, "project acme/web and project api then acme/web", nil, []string{"acme/web", "api"}},
		{"ignored values, any case", projects, "project THE and project This and project x", nil, []string{"x"}},
		{"whole match without a group", words, "get all the bug ids", nil, []string{"get", "all", "the", "bug", "ids"}},
		{"duplicates dropped", words, "bug bug bug", nil, []string{"bug"}},
		{"appends to dst, dedup only among its own values", words, "bug", []string{"bug"}, []string{"bug", "bug"}},
		{"no match keeps dst", projects, "nothing here", []string{"a"}, []string{"a"}},
		{"a release is the range from the tag before it", revisions, "what changed in v2?", nil, []string{"before v2..v2"}},
		{"from and to make a range", revisions, "from v1 to v2", nil, []string{"v1..v2"}},
		{"from alone is open-ended", revisions, "since v1", nil, []string{"v1.."}},
		{"to alone is a revision", revisions, "on main", nil, []string{"main"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.entity.Extract(tt.query, tt.dst))
		})
	}
}

func TestEntityIgnoreMustBeStrings(t *testing.T) {
	_, diags := Parse("e.hcl", []byte("entity \"e\" {\n  pattern = \"x\"\n  ignore = \"x\"\n}\n"))
	require.Len(t, diags, 1, diags.Error())
	assert.Equal(t, CheckType, CheckName(diags[0]))
	assert.Equal(t, 3, diags[0].Subject.Start.Line)
}

func BenchmarkEntityExtract(b *testing.B) {
	rs, diags := Parse("e.hcl", []byte(`entity "dates" {
  patterns = ["(?i)\\b(today|yesterday)\\b", "(?i)\\b((?:this|last) (?:week|month))\\b"]
  ignore   = ["this week"]
}`))
	require.Empty(b, diags)
	e := rs.Entities[0]
	query := "what changed in acme/web since yesterday and last week, not this week"
	var dst []string
	b.ReportAllocs()
	for b.Loop() {
		dst = e.Extract(query, dst[:0])
	}
}

func TestEntityRangesAndTakenSpans(t *testing.T) {
	src := `entity "revisions" {
  patterns = [
    "(?i)\\bsince\\s+(?P<from>v?\\d+\\.\\d+\\.\\d+)",
    "(?i)\\bbetween\\s+(?P<from>v?\\d+\\.\\d+\\.\\d+)\\s+and\\s+(?P<to>v?\\d+\\.\\d+\\.\\d+)",
    "(?i)\\bon\\s+branch\\s+(?P<to>[\\w/-]+)",
  ]
  ground = "ref"
}
entity "projects" {
  pattern = "\\b(?:in|for)\\s+([A-Z][A-Z0-9]+)\\b"
  ground  = "project"
}
entity "dates" { finder = "dates" }
`
	rs, diags := Parse("entities.hcl", []byte(src))
	require.Empty(t, diags, diags.Error())
	revs, projects, dates := rs.Entities[0], rs.Entities[1], rs.Entities[2]
	assert.Equal(t, "ref", revs.Ground)
	assert.Equal(t, "project", projects.Ground)
	assert.Equal(t, FinderDates, dates.Finder)
	assert.Empty(t, dates.Patterns)

	assert.Equal(t, []string{"v1.17.0.."}, revs.Extract("what changed since v1.17.0?", nil))
	assert.Equal(t, []string{"v1.0.0..v1.1.0"}, revs.Extract("commits between v1.0.0 and v1.1.0", nil))
	assert.Equal(t, []string{"release/2"}, revs.Extract("commits on branch release/2", nil))

	q := "how many commits in Q1 2024 for ABC?"
	assert.Equal(t, []string{"Q1", "ABC"}, projects.Extract(q, nil))
	taken := []Span{{Start: 20, End: 27}} // "Q1 2024"
	assert.Equal(t, "Q1 2024", q[taken[0].Start:taken[0].End])
	assert.Equal(t, []string{"ABC"}, projects.ExtractOutside(cond.NewText(q), taken, nil), "a value inside a taken span is dropped")
}

func TestEntityFinderAndGroundErrors(t *testing.T) {
	tests := []struct {
		src, summary string
		line         int
	}{
		{"entity \"d\" {\n  finder = \"weather\"\n}\n", `Invalid value for "finder"`, 2},
		{"entity \"d\" {\n  pattern = \"x\"\n  ground = \"planet\"\n}\n", `Invalid value for "ground"`, 3},
		{"entity \"d\" {\n  pattern = \"x\"\n  finder  = \"dates\"\n}\n", `Both "finder" and a pattern`, 3},
		{"entity \"d\" {\n  ground = \"path\"\n}\n", "Missing entity pattern", 1},
	}
	for _, tt := range tests {
		t.Run(tt.summary, func(t *testing.T) {
			_, diags := Parse("e.hcl", []byte(tt.src))
			require.Len(t, diags, 1, diags.Error())
			assert.Equal(t, tt.summary, diags[0].Summary)
			assert.Equal(t, tt.line, diags[0].Subject.Start.Line)
		})
	}
}

func TestReleaseOf(t *testing.T) {
	for _, r := range []string{"v1.2.0", "last release", "1.2"} {
		assert.Equal(t, r, ReleaseOf(ReleaseRange(r)), "the release of its own range")
	}
	for _, v := range []string{"v1.0..v1.1", "v1.0..", "main", "before v1.0..v1.1"} {
		assert.Equal(t, v, ReleaseOf(v), "not a release range")
	}
}
