package config_test

import (
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/sdk/config"
)

// gitConfig has the git source's keys, to compare with the helper it replaces.
type gitConfig struct {
	Path      string `json:"path"`
	Repo      string `json:"repo"`
	Ref       string `json:"ref" default:"HEAD"`
	Source    string `json:"source" default:"git"`
	Stats     *bool  `json:"stats" default:"true" want:"true or false"`
	CommitURL string `json:"commit_url"`
}

func BenchmarkDecode(b *testing.B) {
	raw := json.RawMessage(`{"path":"../repo","ref":"main","source":"shop","stats":false,"commit_url":"https://x/{sha}","colour":"red"}`)
	b.ReportAllocs()
	for b.Loop() {
		var cfg gitConfig
		if diags, ok := config.Decode("git", raw, &cfg); !ok || len(diags) != 1 {
			b.Fatal(diags)
		}
	}
}

func BenchmarkSchema(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		config.Schema[gitConfig]()
	}
}
