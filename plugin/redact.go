package plugin

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// redacted replaces a secret in errors and logs.
const redacted = "[REDACTED]"

// redactor hides secrets in strings. The zero value and nil hide nothing.
type redactor struct {
	replacer *strings.Replacer
}

func newRedactor(secrets []string) *redactor {
	secrets = slices.DeleteFunc(slices.Clone(secrets), func(s string) bool { return s == "" })
	if len(secrets) == 0 {
		return &redactor{}
	}
	// Longest first, so a secret that contains another is hidden whole.
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, redacted)
	}
	return &redactor{replacer: strings.NewReplacer(pairs...)}
}

func (r *redactor) string(s string) string {
	if r == nil || r.replacer == nil {
		return s
	}
	return r.replacer.Replace(s)
}

// error returns err with secrets hidden from its message. The result still
// unwraps to err, so errors.Is and errors.As keep working.
func (r *redactor) error(err error) error {
	if err == nil || r == nil || r.replacer == nil {
		return err
	}
	msg := err.Error()
	if clean := r.string(msg); clean != msg {
		return &redactedError{msg: clean, err: err}
	}
	return err
}

// redactedError shows a cleaned message but unwraps to the original error.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// args hides secrets in the values of hclog key/value pairs.
func (r *redactor) args(args []any) []any {
	if r == nil || r.replacer == nil {
		return args
	}
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = r.string(v)
		case error:
			out[i] = r.string(v.Error())
		default:
			out[i] = a
		}
	}
	return out
}

// hostLogger wraps the host's hclog.Logger: it hides secrets, can demote
// go-plugin's chatter to debug, and can mute go-plugin's own stderr
// re-emission (Named sub-loggers), which this package does itself under the
// plugin's logical name.
type hostLogger struct {
	hclog.Logger
	redact    *redactor
	demote    bool // log every level as debug
	muteNamed bool // Named returns a logger that drops everything
}

func (l *hostLogger) Log(level hclog.Level, msg string, args ...any) {
	if l.demote && level > hclog.Debug {
		level = hclog.Debug
	}
	l.Logger.Log(level, l.redact.string(msg), l.redact.args(args)...)
}

func (l *hostLogger) Trace(msg string, args ...any) { l.Log(hclog.Trace, msg, args...) }
func (l *hostLogger) Debug(msg string, args ...any) { l.Log(hclog.Debug, msg, args...) }
func (l *hostLogger) Info(msg string, args ...any)  { l.Log(hclog.Info, msg, args...) }
func (l *hostLogger) Warn(msg string, args ...any)  { l.Log(hclog.Warn, msg, args...) }
func (l *hostLogger) Error(msg string, args ...any) { l.Log(hclog.Error, msg, args...) }

func (l *hostLogger) With(args ...any) hclog.Logger {
	c := *l
	c.Logger = l.Logger.With(l.redact.args(args)...)
	return &c
}

func (l *hostLogger) Named(name string) hclog.Logger {
	if l.muteNamed {
		return hclog.NewNullLogger()
	}
	c := *l
	c.Logger = l.Logger.Named(name)
	return &c
}

func (l *hostLogger) ResetNamed(name string) hclog.Logger {
	c := *l
	c.Logger = l.Logger.ResetNamed(name)
	return &c
}
