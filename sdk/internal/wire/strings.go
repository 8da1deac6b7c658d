package wire

import (
	"strings"
	"unicode/utf8"
	"unsafe"
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

// UnsafeString views b as a string without copying. Only for bytes that
// are never written again: a received message's own copy (see Codec).
func UnsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
