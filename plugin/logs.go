package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
)

// maxLine bounds how much of one unterminated line is buffered.
const maxLine = 64 << 10

// lineWriter splits what it is written into lines and hands each to fn.
// go-plugin writes stderr in pieces (a line, then its newline), so lines are
// reassembled here.
type lineWriter struct {
	mu  sync.Mutex
	buf []byte
	fn  func(line string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.buf = append(w.buf, p...)
			if len(w.buf) >= maxLine {
				w.fn(string(w.buf))
				w.buf = w.buf[:0]
			}
			break
		}
		w.buf = append(w.buf, p[:i]...)
		w.fn(strings.TrimRight(string(w.buf), "\r"))
		w.buf = w.buf[:0]
		p = p[i+1:]
	}
	return n, nil
}

// pluginLog re-emits one plugin process's stderr through the host logger
// under the plugin's name, and remembers what a crash report needs.
type pluginLog struct {
	logger hclog.Logger // already named after the plugin, already redacting

	mu      sync.Mutex
	panic   string // the first "panic: …" or "fatal error: …" line
	inPanic bool
	last    string // the last non-empty line
}

// line handles one stderr line: an hclog JSON entry keeps its level and
// fields; plain text is debug output, except a Go panic, which is an error.
func (l *pluginLog) line(line string) {
	if strings.TrimSpace(line) == "" {
		return
	}
	l.mu.Lock()
	l.last = line
	startsPanic := strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")
	if startsPanic && l.panic == "" {
		l.panic = line
	}
	inPanic := l.inPanic || startsPanic
	l.inPanic = inPanic
	l.mu.Unlock()

	if entry, ok := parseEntry(line); ok && !inPanic {
		l.logger.Log(entry.level, entry.message, entry.args...)
		return
	}
	if inPanic {
		l.logger.Error(line)
		return
	}
	l.logger.Debug(line)
}

// crashNote summarizes why the process died, from what it printed last.
func (l *pluginLog) crashNote() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.panic != "":
		return l.panic
	case l.last != "":
		if e, ok := parseEntry(l.last); ok {
			return "last log line: " + e.message
		}
		return "last stderr line: " + l.last
	default:
		return "no output on stderr"
	}
}

// entry is one parsed hclog JSON log line.
type entry struct {
	level   hclog.Level
	message string
	args    []any
}

// parseEntry decodes an hclog JSON line ({"@level":…,"@message":…,…}).
func parseEntry(line string) (entry, bool) {
	if !strings.HasPrefix(line, "{") {
		return entry{}, false
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(line), &raw); err != nil {
		return entry{}, false
	}
	msg, ok := raw["@message"].(string)
	if !ok {
		return entry{}, false
	}
	level := hclog.Info
	if s, ok := raw["@level"].(string); ok {
		if lv := hclog.LevelFromString(s); lv != hclog.NoLevel {
			level = lv
		}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		if !strings.HasPrefix(k, "@") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	args := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		args = append(args, k, raw[k])
	}
	return entry{level: level, message: msg, args: args}, true
}

// stdoutWatch turns anything a plugin prints on stdout after the handshake
// into an error line naming the plugin: stdout belongs to the handshake.
func stdoutWatch(logger hclog.Logger, who string) *lineWriter {
	return &lineWriter{fn: func(line string) {
		logger.Error(stdoutPollution(who, line))
	}}
}

func stdoutPollution(who, line string) string {
	return fmt.Sprintf("plugin %s wrote to stdout outside the handshake: %q; plugins must log to stderr", who, line)
}
