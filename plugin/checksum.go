package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// ChecksumState says whether a plugin binary matches its sha256 pin.
type ChecksumState string

// Checksum states.
const (
	ChecksumUnpinned ChecksumState = "unpinned"        // no sha256 in the rules
	ChecksumOK       ChecksumState = "pinned-ok"       // the binary matches its pin
	ChecksumMismatch ChecksumState = "pinned-mismatch" // the binary differs from its pin
)

// FileSHA256 returns the hex SHA-256 digest of the file at path, the value
// `sha256sum` prints.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ChecksumError refuses a binary whose digest differs from its pin.
type ChecksumError struct {
	Path     string
	Expected string
	Actual   string
}

// Error names both digests and how to update the pin.
func (e *ChecksumError) Error() string {
	return fmt.Sprintf("refusing to run %s: sha256 is %s but the rules pin %s (the binary changed; if the change is expected, update sha256 to the output of `sha256sum %s`)",
		e.Path, e.Actual, e.Expected, e.Path)
}

// normalizePin is pin (hex, any case, an optional "sha256:" prefix) as
// lower-case hex, or an error saying what a pin must be.
func normalizePin(pin string) (string, error) {
	p := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(pin), "sha256:"))
	if _, err := hex.DecodeString(p); err != nil || len(p) != sha256.Size*2 {
		return "", fmt.Errorf("sha256 pin %q is not 64 hex digits (compute it with `sha256sum BINARY`)", pin)
	}
	return p, nil
}
