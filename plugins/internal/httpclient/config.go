package httpclient

import (
	"encoding/json"
	"fmt"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// MaxBodyConfigKey is the config key every remote plugin reads its body
// limit from, so the rules spell it one way for all of them.
const MaxBodyConfigKey = "max_response_bytes"

// BodyLimit is the max_response_bytes config value, in bytes. Unset is 0;
// a value given as 0 or less reads as -1, so CheckMaxBody can tell it
// from unset and report it.
type BodyLimit int64

// UnmarshalJSON reads a number of bytes.
func (l *BodyLimit) UnmarshalJSON(b []byte) error {
	var n int64
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("want a number of bytes, got %s", b)
	}
	if n <= 0 { // 0 would read as unset; keep it apart
		n = -1
	}
	*l = BodyLimit(n)
	return nil
}

// ConfigSchema is the JSON Schema of max_response_bytes.
func (BodyLimit) ConfigSchema() json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"integer","minimum":1,"description":"bound on one response body in bytes; default %d (64 MiB)"}`, DefaultMaxBody))
}

// CheckMaxBody fills in the default limit when the key was not given and
// reports a value that is not positive.
func CheckMaxBody(plugin string, l *BodyLimit) sdk.Diagnostics {
	switch {
	case *l == 0:
		*l = DefaultMaxBody
	case *l < 0:
		*l = DefaultMaxBody
		return sdk.Diagnostics{config.Error(MaxBodyConfigKey, plugin+": "+MaxBodyConfigKey+" must be positive",
			fmt.Sprintf("a number of bytes, e.g. %d (64 MiB, the default)", DefaultMaxBody))}
	}
	return nil
}
