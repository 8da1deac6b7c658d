package template

import (
	"encoding/json"
	"errors"

	"github.com/nous-dev/nous/plugins/internal/pluginconfig"
	"github.com/nous-dev/nous/sdk"
)

// Config is the template agent's configuration.
type Config struct {
	// MaxItems caps the records listed per kind in a draft (the counts
	// still cover every record).
	MaxItems int `json:"max_items"`
	// Language selects the headings and labels: "en" or "zh".
	Language string `json:"language"`
}

const defaultMaxItems = 20

func defaultConfig() Config { return Config{MaxItems: defaultMaxItems, Language: "en"} }

const configSchema = `{"type":"object","additionalProperties":false,"properties":{` +
	`"max_items":{"type":"integer","minimum":1,"description":"records listed per kind in a draft"},` +
	`"language":{"type":"string","enum":["en","zh"],"description":"language of headings and labels"}}}`

// parseConfig decodes raw over the defaults and reports every problem.
func parseConfig(raw json.RawMessage) (Config, sdk.Diagnostics) {
	cfg := defaultConfig()
	diags, _ := pluginconfig.Decode("template", raw,
		pluginconfig.Key{Name: "max_items", Want: "a positive integer", Into: func(v json.RawMessage) error {
			if err := json.Unmarshal(v, &cfg.MaxItems); err != nil || cfg.MaxItems < 1 {
				return errors.New("not a positive integer")
			}
			return nil
		}},
		pluginconfig.Key{Name: "language", Want: `"en" or "zh"`, Into: func(v json.RawMessage) error {
			if err := json.Unmarshal(v, &cfg.Language); err != nil || labelSets[cfg.Language] == nil {
				return errors.New("not a known language")
			}
			return nil
		}},
	)
	return cfg, diags
}
