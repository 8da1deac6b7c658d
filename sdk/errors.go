package sdk

import (
	"errors"
	"fmt"
)

// ErrorKind classifies a plugin error. Kinds cross the wire intact so the
// host can decide whether to retry, refine or give up.
type ErrorKind int

// Error kinds.
const (
	KindUnknown      ErrorKind = iota
	KindBadConfig              // the configuration is wrong; retrying will not help
	KindNotFound               // a project, repository or resource does not exist
	KindRateLimited            // the service asked us to slow down
	KindUnavailable            // the service is down or unreachable
	KindDeadline               // the call ran out of time
	KindBadRequest             // the request itself is malformed (unknown filter value, bad date)
	KindUnauthorized           // missing or rejected credentials
)

var kindNames = [...]string{"unknown", "bad_config", "not_found", "rate_limited", "unavailable", "deadline", "bad_request", "unauthorized"}

// String names the kind as logs and the trace show it: "not_found", ….
func (k ErrorKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Sentinel errors, one per kind, for errors.Is.
var (
	ErrBadConfig    = &Error{Kind: KindBadConfig}
	ErrNotFound     = &Error{Kind: KindNotFound}
	ErrRateLimited  = &Error{Kind: KindRateLimited}
	ErrUnavailable  = &Error{Kind: KindUnavailable}
	ErrDeadline     = &Error{Kind: KindDeadline}
	ErrBadRequest   = &Error{Kind: KindBadRequest}
	ErrUnauthorized = &Error{Kind: KindUnauthorized}
)

// Error is a plugin error with a kind. errors.Is(err, sdk.ErrNotFound)
// matches any *Error of the same kind.
type Error struct {
	Kind    ErrorKind
	Message string
	Err     error // cause, in-process only; it does not cross the wire
}

// Errorf returns an *Error of kind with a formatted message.
func Errorf(kind ErrorKind, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Kind: kind, Message: err.Error(), Err: errors.Unwrap(err)}
}

// Error returns the message, or the kind's name when there is none.
func (e *Error) Error() string {
	if e.Message == "" {
		return e.Kind.String()
	}
	return e.Message
}

// Unwrap returns the cause, nil once the error has crossed the wire.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error of the same kind whose Message is
// empty or e's: the sentinels (ErrNotFound, …) match any message.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && (t.Message == "" || t.Message == e.Message)
}

// KindOf returns the kind of err, KindUnknown when it carries none.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindUnknown
}
