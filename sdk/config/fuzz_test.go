package config_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nous-dev/nous/sdk/config"
)

// FuzzDecode feeds arbitrary bytes to Decode: it never panics, every
// diagnostic has a summary naming the plugin, and a secret never shows.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"path":"a","stats":false,"token":"t","limits":{"mode":"m","depth":2},"fields":{"title":"h"}}`))
	f.Add([]byte(`{"token":{"x":"hunter2"},"key":"hunter2","n":1e400}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var cfg testConfig
		diags, _ := config.Decode("p", json.RawMessage(raw), &cfg)
		for _, d := range diags {
			if !strings.HasPrefix(d.Summary, "p: ") {
				t.Fatalf("a summary without the plugin: %+v", d)
			}
			if (d.Path == "token" || d.Path == "key") && strings.Contains(d.Summary+d.Detail, "hunter2") {
				t.Fatalf("a secret echoed: %+v", d)
			}
		}
	})
}
