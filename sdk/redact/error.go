package redact

import (
	"errors"

	"github.com/nous-dev/nous/sdk"
)

// Error returns err with every secret masked in its message. When nothing
// was masked err comes back unchanged. Otherwise the result still matches
// what err matched (errors.Is, errors.As, sdk.KindOf) but does not unwrap:
// a cause's own text may carry the secret. An *sdk.Error taken out of it
// with errors.As is a masked copy without a cause.
func (r *Redactor) Error(err error) error {
	if err == nil || !r.active() {
		return err
	}
	msg := err.Error()
	if clean := r.String(msg); clean != msg {
		return &maskedError{msg: clean, err: err, r: r}
	}
	return err
}

// maskedError shows a masked message and answers errors.Is and errors.As
// for the error it hides, without exposing it through Unwrap.
type maskedError struct {
	msg string
	err error
	r   *Redactor
}

func (e *maskedError) Error() string { return e.msg }

// Is matches what the hidden error matches.
func (e *maskedError) Is(target error) bool { return errors.Is(e.err, target) }

// As finds what the hidden error holds; an *sdk.Error is handed out masked.
func (e *maskedError) As(target any) bool {
	t, ok := target.(**sdk.Error)
	if !ok {
		return errors.As(e.err, target)
	}
	var se *sdk.Error
	if !errors.As(e.err, &se) {
		return false
	}
	*t = &sdk.Error{Kind: se.Kind, Message: e.r.String(se.Message)}
	return true
}
