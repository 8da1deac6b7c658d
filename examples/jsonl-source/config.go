package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// Config is the plugin's configuration, the `config = { … }` of its source
// block in the rules file. Its tags declare each key once: config.Decode
// reads the block by them, and config.Schema reports them to nous.
type Config struct {
	Path      string `json:"path" config:"required" doc:"JSON-lines file to serve, relative to the rules file"`
	TimeField string `json:"time_field" default:"time" doc:"key holding each record's time"`
	Source    string `json:"source" default:"jsonl" doc:"the records' source, for the tier table"`
	Tier      int    `json:"tier" min:"0" doc:"the records' tier; 0 leaves it to the tier table"`
}

// parseConfig decodes raw into a Config and checks what the tags cannot
// say: that path names a file and tier is not negative. Every problem is a
// diagnostic at its key, so lint shows them all at once.
func parseConfig(ctx context.Context, raw json.RawMessage) (Config, sdk.Diagnostics) {
	var cfg Config
	diags, ok := config.Decode("jsonl", raw, &cfg)
	if !ok {
		return cfg, diags
	}
	if cfg.Path != "" { // else Decode said what is wrong with it
		cfg.Path = config.RelativeTo(sdk.ConfigDir(ctx), cfg.Path)
		if info, err := os.Stat(cfg.Path); err != nil {
			diags = append(diags, config.Error("path", "Cannot read the file", err.Error()))
		} else if info.IsDir() {
			diags = append(diags, config.Error("path", "Path is a directory", cfg.Path+" is a directory; want a JSON-lines file"))
		}
	}
	if cfg.Tier < 0 {
		diags = append(diags, config.Error("tier", "Negative tier", fmt.Sprintf("tier is %d; want 0 (unknown) or more", cfg.Tier)))
	}
	return cfg, diags
}
