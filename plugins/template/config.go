package template

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

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
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return cfg, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return cfg, sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "config is not a JSON object", Detail: err.Error()}}
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var diags sdk.Diagnostics
	for _, k := range keys {
		v := fields[k]
		switch k {
		case "max_items":
			if err := json.Unmarshal(v, &cfg.MaxItems); err != nil || cfg.MaxItems < 1 {
				diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: k,
					Summary: "max_items must be a positive integer", Detail: fmt.Sprintf("got %s", v)})
			}
		case "language":
			if err := json.Unmarshal(v, &cfg.Language); err != nil || labelSets[cfg.Language] == nil {
				diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Path: k,
					Summary: `language must be "en" or "zh"`, Detail: fmt.Sprintf("got %s", v)})
			}
		default:
			diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Path: k,
				Summary: fmt.Sprintf("unknown config key %q is ignored", k), Detail: "known keys: language, max_items"})
		}
	}
	return cfg, diags
}
