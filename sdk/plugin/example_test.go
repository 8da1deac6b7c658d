package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/plugin"
)

// notes serves the files of a directory as documents: the smallest useful
// Source. examples/jsonl-source in the nous repository is a complete one.
type notes struct {
	dir string
}

// Describe names the source and what it returns.
func (n *notes) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{Name: "notes", Version: "0.1.0", Kinds: []string{sdk.KindDocument}}, nil
}

// Configure reads the source block's config. A wrong value is a
// diagnostic naming its key, which `nous lint --plugins` shows.
func (n *notes) Configure(_ context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
	var c struct {
		Dir string `json:"dir"`
	}
	if err := json.Unmarshal(config, &c); err != nil {
		return nil, sdk.Errorf(sdk.KindBadConfig, "notes: config: %v", err)
	}
	if c.Dir == "" {
		return sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "a directory is required", Path: "dir"}}, nil
	}
	n.dir = c.Dir
	return nil, nil
}

// Fetch emits one record per file. The error kind tells the engine what
// went wrong; emit fails once the host has what it asked for or gave up,
// and Fetch returns that error.
func (n *notes) Fetch(_ context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	entries, err := os.ReadDir(n.dir)
	if err != nil {
		return sdk.Errorf(sdk.KindNotFound, "notes: %w", err)
	}
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(n.dir, e.Name()))
		if err != nil {
			continue
		}
		r := sdk.Record{ID: e.Name(), Source: "notes", Kind: sdk.KindDocument, Title: e.Name(), Body: string(body)}
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

// A plugin binary is its implementation and a main that calls Serve. Test
// it in-process with sdktest.Source.
func Example() {
	plugin.Serve(plugin.Config{Source: &notes{}})
}
