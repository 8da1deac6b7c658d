package file

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// section is what a test expects of one section record.
type section struct {
	ID, Title, Body string
}

func sections(t *testing.T, text string) []section {
	t.Helper()
	var out []section
	err := decodeSections(context.Background(), "doc.md", "doc.md", strings.NewReader(text), func(line int, obj map[string]any) error {
		out = append(out, section{obj["id"].(string), obj["title"].(string), obj["body"].(string)})
		return nil
	})
	require.NoError(t, err)
	return out
}

func TestDecodeSections(t *testing.T) {
	tests := []struct {
		name, text string
		want       []section
	}{
		{"markdown headings", "# Title\nintro\n\n## Usage\nrun it\n### Flags\n-v\n",
			[]section{{"doc.md:1", "Title", "intro"}, {"doc.md:4", "Usage", "run it"}, {"doc.md:6", "Flags", "-v"}}},
		{"text before the first heading is titled with the file", "preamble\n# A\ntext\n",
			[]section{{"doc.md:1", "doc.md", "preamble"}, {"doc.md:2", "A", "text"}}},
		{"underlined headings (setext, reStructuredText)", "Guide\n=====\n\nhello\n\nPart\n----\nmore\n",
			[]section{{"doc.md:1", "Guide", "hello"}, {"doc.md:6", "Part", "more"}}},
		{"AsciiDoc titles", "= Git\n\n== Synopsis\ngit log\n",
			[]section{{"doc.md:1", "Git", ""}, {"doc.md:3", "Synopsis", "git log"}}},
		{"a rule after a blank line is text", "# A\ntext\n\n---\nmore\n",
			[]section{{"doc.md:1", "A", "text\n\n---\nmore"}}},
		{"headings in code fences are text", "# A\n```sh\n# not a heading\n```\n",
			[]section{{"doc.md:1", "A", "```sh\n# not a heading\n```"}}},
		{"anchors and closing marks are not the title", "## trim(str) {#trim} ##\nx\n",
			[]section{{"doc.md:1", "trim(str)", "x"}}},
		{"#hashtag is no heading", "#hashtag\n", []section{{"doc.md:1", "doc.md", "#hashtag"}}},
		{"an empty section's heading leads the next one's title", "# A\nx\n## String Functions\n### trim(str)\ntrims\n### upper(str)\nup\n",
			[]section{{"doc.md:1", "A", "x"}, {"doc.md:4", "String Functions › trim(str)", "trims"}, {"doc.md:6", "upper(str)", "up"}}},
		{"an empty underlined heading too", "Guide\n=====\nhi\n\nParts\n-----\n\nOne\n---\nx\n",
			[]section{{"doc.md:1", "Guide", "hi"}, {"doc.md:8", "Parts › One", "x"}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sections(t, tt.text))
		})
	}
}

func TestDecodeAsciiDocSections(t *testing.T) {
	tests := []struct {
		name, text string
		want       []section
	}{
		{"tilde underlines are headings, not fences", "Getting help\n~~~~~~~~~~~~\nUse it.\n\nMore\n~~~~\nx\n",
			[]section{{"doc.adoc:1", "Getting help", "Use it."}, {"doc.adoc:5", "More", "x"}}},
		{"listing blocks are text", "= T\n\n------------\n$ git bisect broken\n------------\nafter\n",
			[]section{{"doc.adoc:1", "T", "------------\n$ git bisect broken\n------------\nafter"}}},
		{"a listing block after a list continuation is text", "= T\n\n* Bisect a build:\n+\n------------\n$ git bisect reset # quit\n------------\n",
			[]section{{"doc.adoc:1", "T", "* Bisect a build:\n+\n------------\n$ git bisect reset # quit\n------------"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []section
			require.NoError(t, decodeSections(context.Background(), "doc.adoc", "doc.adoc", strings.NewReader(tt.text), func(line int, obj map[string]any) error {
				got = append(got, section{obj["id"].(string), obj["title"].(string), obj["body"].(string)})
				return nil
			}))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestDecodeSectionsLongLine(t *testing.T) {
	text := "# A\nkept\n" + strings.Repeat("x", 2<<20) + "\n# B\n"
	got := sections(t, text)
	assert.Equal(t, []section{{"doc.md:1", "A", "kept"}}, got, "a line beyond the buffer ends the file there, not the fetch")
}

func TestDecodeSectionsBounds(t *testing.T) {
	long := "# A\n" + strings.Repeat("word ", 2*maxSectionBody)
	got := sections(t, long)
	require.Len(t, got, 1)
	assert.LessOrEqual(t, len(got[0].Body), maxSectionBody+len("…"))
	assert.True(t, strings.HasSuffix(got[0].Body, "…"), "a cut section says so")

	big := strings.Repeat("# H\nline\n", maxDocFile/8)
	n := 0
	require.NoError(t, decodeSections(context.Background(), "big.md", "big.md", strings.NewReader(big), func(int, map[string]any) error { n++; return nil }))
	assert.Less(t, n, maxDocFile/8, "a file is read up to maxDocFile bytes")
}

// docTree writes files (path → text) under a new directory.
func docTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(text), 0o644))
	}
	return dir
}

func TestDocumentationDirectory(t *testing.T) {
	dir := docTree(t, map[string]string{
		"README.md":             "# Tool\nIt parses.\n",
		"CONTRIBUTING":          "Send patches.\n",
		"main.go":               "package main\n",
		"docs/guide/install.md": "# Install\ngo install\n",
		"docs/logo.png":         "\x89PNG",
		"pkg/README.md":         "# pkg\nA package.\n",
		"pkg/notes.md":          "# Notes\nnot included\n",
		".github/PULL.md":       "# PR\nhidden\n",
		"testdata/case.md":      "# Fixture\nnot docs\n",
	})
	tests := []struct {
		name    string
		include []string
		want    []string
	}{
		// The shallowest first, then in lexical order.
		{"every documentation file", nil, []string{"CONTRIBUTING:1", "README.md:1", "pkg/README.md:1", "pkg/notes.md:1", "docs/guide/install.md:1"}},
		{"the default rules' globs", []string{"*", "docs/**", "**/README*"}, []string{"CONTRIBUTING:1", "README.md:1", "pkg/README.md:1", "docs/guide/install.md:1"}},
		{"top level only", []string{"*"}, []string{"CONTRIBUTING:1", "README.md:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := map[string]any{"path": dir, "format": "markdown", "source": "docs"}
			if tt.include != nil {
				cfg["include"] = tt.include
			}
			recs := plugintest.Fetch(t, configured(t, cfg), sdk.FetchRequest{Kind: sdk.KindDocument})
			assert.Equal(t, tt.want, ids(recs))
			for _, r := range recs {
				assert.Equal(t, "docs", r.Source)
				assert.Equal(t, sdk.KindDocument, r.Kind)
				assert.Equal(t, strings.SplitN(r.ID, ":", 2)[0], r.Fields["path"])
				assert.EqualValues(t, 1, r.Fields["line"])
			}
		})
	}
}

func TestDocumentationBounds(t *testing.T) {
	files := map[string]string{}
	for _, name := range []string{"a.md", "b.md", "c.md", "d.md"} {
		files[name] = "# " + name + "\n" + strings.Repeat("x", 100) + "\n"
	}
	dir := docTree(t, files)
	fetch := func(cfg map[string]any) []string {
		cfg["path"], cfg["format"] = dir, "markdown"
		return ids(plugintest.Fetch(t, configured(t, cfg), sdk.FetchRequest{}))
	}
	assert.Equal(t, []string{"a.md:1", "b.md:1"}, fetch(map[string]any{"max_files": 2}))
	assert.Equal(t, []string{"a.md:1", "b.md:1", "c.md:1"}, fetch(map[string]any{"max_bytes": 350}))
}

func TestDocumentationNoneIsNoError(t *testing.T) {
	dir := docTree(t, map[string]string{"main.go": "package main\n"})
	s := configured(t, map[string]any{"path": dir, "format": "markdown"})
	assert.Empty(t, plugintest.Fetch(t, s, sdk.FetchRequest{}), "a repository without documentation has none to return")
}

func TestDocumentationConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, cfg, want string
	}{
		{"bad glob", `"include": ["["]`, `include "[" is not a valid glob`},
		{"no files", `"max_files": -1`, "max_files must be at least 1"},
		{"no bytes", `"max_bytes": -5`, "max_bytes must be at least 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			raw := fmt.Sprintf(`{"path": %q, "format": "markdown", %s}`, dir, tt.cfg)
			diags, err := New().Configure(context.Background(), json.RawMessage(raw))
			require.NoError(t, err)
			require.True(t, diags.HasErrors())
			var all []string
			for _, d := range diags {
				all = append(all, d.Summary)
			}
			assert.Contains(t, strings.Join(all, "\n"), tt.want)
		})
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tt := range []struct {
		glob, path string
		want       bool
	}{
		{"*", "README.md", true},
		{"*", "docs/a.md", false},
		{"docs/**", "docs/a.md", true},
		{"docs/**", "docs/x/y/a.md", true},
		{"**/README*", "README.md", true},
		{"**/README*", "a/b/README", true},
		{"**/README*", "a/b/READ", false},
		{"**", "a/b", true},
	} {
		assert.Equal(t, tt.want, included([]string{tt.glob}, tt.path), "%s ~ %s", tt.glob, tt.path)
	}
}

func FuzzSections(f *testing.F) {
	for _, s := range []string{"# A\nb\n", "A\n===\n", "```\n# x\n", "= T\n== U\n", "x\n---\n", "## {#a}\n", "\xff\xfe#"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := newMapper(config{Kind: "document", Source: "docs"}, nil)
		last := 0
		err := decodeSections(context.Background(), "fuzz.md", "fuzz.md", bytes.NewReader(data), func(line int, obj map[string]any) error {
			if line <= last {
				t.Fatalf("section lines go back: %d after %d", line, last)
			}
			last = line
			if b, _ := obj["body"].(string); len(b) > maxSectionBody+len("…") {
				t.Fatalf("section body of %d bytes", len(b))
			}
			_, err := m.record("fuzz.md", line, obj)
			return err
		})
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.md") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

// BenchmarkSections splits 1 MiB of Markdown (2,000 sections) into
// section records.
func BenchmarkSections(b *testing.B) {
	var doc strings.Builder
	for doc.Len() < 1<<20 {
		doc.WriteString("## Section\n\nSome text about the tool, with `code` and a [link](x).\n\n```go\n# not a heading\n```\n\nMore text.\n")
		doc.WriteString(strings.Repeat("A longer paragraph of prose that explains things. ", 8) + "\n\n")
	}
	text := doc.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := decodeSections(context.Background(), "b.md", "b.md", strings.NewReader(text), func(int, map[string]any) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDocumentationDescribesItsKind(t *testing.T) {
	s := configured(t, map[string]any{"path": t.TempDir(), "format": "markdown"})
	info, err := s.Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{sdk.KindDocument}, info.Kinds, "documentation is no issue source")
}

func TestDocumentationGrounding(t *testing.T) {
	dir := docTree(t, map[string]string{"README.md": "# Tool\nproject PAY, status open\n"})
	s := configured(t, map[string]any{"path": dir, "format": "markdown"})
	resp, err := s.Ground(context.Background(), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "PAY"}}})
	require.NoError(t, err)
	assert.Equal(t, filepath.Base(dir), resp.Coverage.Name, "the directory's name, not \".\"")
	require.Len(t, resp.Terms, 1)
	assert.False(t, resp.Terms[0].Known, "documentation knows no projects")
}
