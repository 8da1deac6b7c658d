package template

import (
	"encoding/json"
	"fmt"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// Config is the template agent's configuration.
type Config struct {
	// MaxItems caps the records listed per kind in a draft (the counts
	// still cover every record).
	MaxItems int `json:"max_items" min:"1" doc:"records listed per kind in a draft"`
	// Language selects the headings and labels: "en" or "zh".
	Language string `json:"language" enum:"en,zh" doc:"language of headings and labels"`
}

const defaultMaxItems = 20

func defaultConfig() Config { return Config{MaxItems: defaultMaxItems, Language: "en"} }

// parseConfig decodes raw over the defaults and reports every problem.
func parseConfig(raw json.RawMessage) (Config, sdk.Diagnostics) {
	cfg := defaultConfig()
	diags, ok := config.Decode("template", raw, &cfg)
	if !ok {
		return cfg, diags
	}
	if labelSets[cfg.Language] == nil {
		diags = append(diags, config.Error("language", fmt.Sprintf(`template: config language: want "en" or "zh", got %q`, cfg.Language), ""))
	}
	if cfg.MaxItems < 1 {
		diags = append(diags, config.Error("max_items", fmt.Sprintf("template: config max_items: want a positive integer, got %d", cfg.MaxItems), ""))
	}
	return cfg, diags
}
