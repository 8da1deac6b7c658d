package session

import (
	"fmt"
	"regexp"
	"sync"
)

// validID is a session ID: a file name on every platform, never a path.
var validID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// CheckID returns an error unless id can name a session.
func CheckID(id string) error {
	if !validID().MatchString(id) {
		return fmt.Errorf("session ID %q: want 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", id)
	}
	return nil
}
