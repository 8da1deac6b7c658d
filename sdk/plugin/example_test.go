package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
	"github.com/nous-dev/nous/sdk/plugin"
)

// notesConfig is the source block's config, declared once: config.Decode
// reads it, config.Schema describes it.
type notesConfig struct {
	Dir string `json:"dir" config:"required" doc:"directory whose files are served"`
}

// notes serves the files of a directory as documents: the smallest useful
// Source. examples/jsonl-source in the nous repository is a complete one.
type notes struct {
	dir string
}

// Describe names the source, what it returns and its config.
func (n *notes) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{Name: "notes", Version: "0.1.0", Kinds: []string{sdk.KindDocument},
		ConfigSchema: config.Schema[notesConfig]()}, nil
}

// Configure reads the source block's config. A wrong value is a
// diagnostic naming its key, which `nous lint --plugins` shows.
func (n *notes) Configure(ctx context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	var c notesConfig
	diags, ok := config.Decode("notes", raw, &c)
	if ok && !diags.HasErrors() {
		n.dir = config.RelativeTo(sdk.ConfigDir(ctx), c.Dir)
	}
	return diags, nil
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
		if !e.Type().IsRegular() {
			continue
		}
		body, err := os.ReadFile(filepath.Join(n.dir, e.Name()))
		if err != nil {
			return sdk.Errorf(sdk.KindUnavailable, "notes: %w", err)
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
