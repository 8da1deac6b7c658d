package plugin

import (
	"github.com/hashicorp/go-hclog"

	"github.com/nous-dev/nous/sdk/redact"
)

// hostLogger wraps the host's hclog.Logger: it hides secrets, can demote
// go-plugin's chatter to debug, and can mute go-plugin's own stderr
// re-emission (Named sub-loggers), which this package does itself under the
// plugin's logical name.
type hostLogger struct {
	hclog.Logger
	redact    *redact.Redactor
	demote    bool // log every level as debug
	muteNamed bool // Named returns a logger that drops everything
}

func (l *hostLogger) Log(level hclog.Level, msg string, args ...any) {
	if l.demote && level > hclog.Debug {
		level = hclog.Debug
	}
	l.Logger.Log(level, l.redact.String(msg), l.redact.Args(args)...)
}

func (l *hostLogger) Trace(msg string, args ...any) { l.Log(hclog.Trace, msg, args...) }
func (l *hostLogger) Debug(msg string, args ...any) { l.Log(hclog.Debug, msg, args...) }
func (l *hostLogger) Info(msg string, args ...any)  { l.Log(hclog.Info, msg, args...) }
func (l *hostLogger) Warn(msg string, args ...any)  { l.Log(hclog.Warn, msg, args...) }
func (l *hostLogger) Error(msg string, args ...any) { l.Log(hclog.Error, msg, args...) }

func (l *hostLogger) With(args ...any) hclog.Logger {
	c := *l
	c.Logger = l.Logger.With(l.redact.Args(args)...)
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
