package github

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name      string
		raw       string
		env       map[string]string
		wantBase  string
		wantToken string
		wantErr   string // the path of an error diagnostic
	}{
		{name: "defaults", raw: `{}`, wantBase: DefaultBaseURL},
		{name: "GITHUB_API_URL and GITHUB_TOKEN", raw: `{}`, env: map[string]string{"GITHUB_API_URL": "https://ghe.example.com/api/v3", "GITHUB_TOKEN": "a", "GH_TOKEN": "b"}, wantBase: "https://ghe.example.com/api/v3", wantToken: "a"},
		{name: "GH_TOKEN", raw: `{}`, env: map[string]string{"GH_TOKEN": "b"}, wantBase: DefaultBaseURL, wantToken: "b"},
		{name: "config wins", raw: `{"base_url":"https://h","token":"c"}`, env: map[string]string{"GITHUB_TOKEN": "a"}, wantBase: "https://h", wantToken: "c"},
		{name: "bad base_url", raw: `{"base_url":"ftp://h"}`, wantErr: "base_url"},
		{name: "credentials in base_url", raw: `{"base_url":"https://u:p@h"}`, wantErr: "base_url"},
		{name: "bad repo", raw: `{"repo":"a/b/c"}`, wantErr: "repo"},
		{name: "unknown type", raw: `{"repo":3}`, wantErr: "repo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := parseConfig(json.RawMessage(tt.raw), func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				require.True(t, diags.HasErrors(), "%+v", diags)
				assert.Equal(t, tt.wantErr, diags[0].Path)
				return
			}
			require.False(t, diags.HasErrors(), "%+v", diags)
			assert.Equal(t, tt.wantBase, cfg.BaseURL)
			assert.Equal(t, tt.wantToken, cfg.Token)
		})
	}
}

func TestSplitRepo(t *testing.T) {
	tests := []struct {
		in, owner, name string
		ok              bool
	}{
		{"golang/go", "golang", "go", true},
		{"golang/go.git", "golang", "go", true},
		{" a/b ", "a", "b", true},
		{"a", "", "", false},
		{"/b", "", "", false},
		{"a/", "", "", false},
		{"a/b/c", "", "", false},
		{"a/b?x", "", "", false},
	}
	for _, tt := range tests {
		owner, name, err := splitRepo(tt.in)
		assert.Equal(t, tt.ok, err == nil, tt.in)
		assert.Equal(t, tt.owner, owner, tt.in)
		assert.Equal(t, tt.name, name, tt.in)
	}
}

// FuzzSplitRepo: any input either fails with an error naming it or splits
// into two non-empty parts that put back together give the repository.
func FuzzSplitRepo(f *testing.F) {
	for _, s := range []string{"golang/go", "a/b.git", "a", "/", "a/b/c", " x/y ", "ü/ñ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		owner, name, err := splitRepo(s)
		if err != nil {
			assert.Contains(t, err.Error(), "want owner/name")
			return
		}
		require.NotEmpty(t, owner)
		require.NotEmpty(t, name)
		assert.NotContains(t, name, "/")
		assert.Equal(t, strings.TrimSuffix(strings.TrimSpace(s), ".git"), owner+"/"+name)
	})
}
