package wire

import (
	"strings"
	"unicode/utf8"
)

// ValidUTF8 makes s safe for a protobuf string field, which must be valid
// UTF-8: invalid bytes become U+FFFD, as encoding/json does, instead of
// failing the whole message.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
