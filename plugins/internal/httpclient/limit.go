package httpclient

import (
	"errors"
	"fmt"
)

// TooLargeError is a response body longer than the limit. Nothing past the
// limit is read, so memory stays bounded whatever the server sends.
type TooLargeError struct {
	Host  string
	Limit int64
	Key   string // the config key that raises the limit, when there is one
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("the response from %s is larger than the limit of %s", e.Host, size(e.Limit))
	if e.Key != "" {
		msg += fmt.Sprintf("; raise %s if it is expected", e.Key)
	}
	return msg
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrRefused }

// Refused reports whether err is the client refusing on purpose (a
// redirect, a body over the limit): retrying would meet the same refusal.
func Refused(err error) bool { return errors.Is(err, ErrRefused) }

// size writes n bytes with its binary unit when it is a whole one.
func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d bytes (%d GiB)", n, n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d bytes (%d MiB)", n, n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d bytes (%d KiB)", n, n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
