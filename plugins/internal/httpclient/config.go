package httpclient

import (
	"encoding/json"
	"fmt"

	"github.com/nous-dev/nous/plugins/internal/pluginconfig"
	"github.com/nous-dev/nous/sdk"
)

// MaxBodyConfigKey is the config key every remote plugin reads its body
// limit from, so the rules spell it one way for all of them.
const MaxBodyConfigKey = "max_response_bytes"

// MaxBodyKey is the pluginconfig key decoding max_response_bytes into dst.
func MaxBodyKey(dst *int64) pluginconfig.Key {
	return pluginconfig.Key{Name: MaxBodyConfigKey, Into: func(raw json.RawMessage) error {
		var n int64
		if err := json.Unmarshal(raw, &n); err != nil {
			return err
		}
		*dst = n
		if n <= 0 { // 0 would read as "unset"; keep it apart
			*dst = -1
		}
		return nil
	}, Want: "a number of bytes"}
}

// CheckMaxBody fills in the default limit when the key was not given and
// reports a value that is not positive.
func CheckMaxBody(plugin string, n *int64) sdk.Diagnostics {
	switch {
	case *n == 0:
		*n = DefaultMaxBody
	case *n < 0:
		*n = DefaultMaxBody
		return sdk.Diagnostics{pluginconfig.Error(MaxBodyConfigKey, plugin+": "+MaxBodyConfigKey+" must be positive",
			fmt.Sprintf("a number of bytes, e.g. %d (64 MiB, the default)", DefaultMaxBody))}
	}
	return nil
}
