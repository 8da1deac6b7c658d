package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
)

// lineWriter splits what it is written into lines and hands each to fn
// with its full length; a line longer than maxLine is clipped, not split.
// go-plugin writes its stdio streams in pieces, so lines are reassembled here.
type lineWriter struct {
	mu   sync.Mutex
	buf  []byte
	size int
	fn   func(line []byte, size int)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		w.size += len(part)
		if room := maxLine - len(w.buf); room > 0 {
			w.buf = append(w.buf, part[:min(len(part), room)]...)
		}
		if i < 0 {
			break
		}
		line, size := w.buf, w.size
		if size == len(line) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			size = len(line)
		}
		w.fn(line, size)
		w.buf, w.size = w.buf[:0], 0
		p = p[i+1:]
	}
	return n, nil
}

// pluginLog re-emits one plugin process's stderr through the host logger
// under the plugin's name, and keeps what a crash report needs: the first
// panic line and a bounded tail of stderr and of stdout.
type pluginLog struct {
	logger hclog.Logger // already named after the plugin, already redacting

	mu      sync.Mutex
	panic   string // the first "panic: …" or "fatal error: …" line
	inPanic bool
	stderr  tail
	stdout  tail // what the process printed on stdout other than the handshake
}

// line handles one complete stderr line.
func (l *pluginLog) line(line string) { l.record([]byte(line), len(line)) }

// record handles one stderr line, clipped to its first bytes, of size bytes
// in all: an hclog JSON entry keeps its level and fields (a clipped one
// keeps its level); plain text is debug output, except a Go panic, which is
// an error.
func (l *pluginLog) record(b []byte, size int) {
	line := string(b)
	if strings.TrimSpace(line) == "" {
		return
	}
	l.mu.Lock()
	l.stderr.add(line, size)
	startsPanic := strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")
	if startsPanic && l.panic == "" {
		l.panic = clip(line, size)
	}
	inPanic := l.inPanic || startsPanic
	l.inPanic = inPanic
	l.mu.Unlock()

	clipped := size > len(line)
	switch entry, ok := parseEntry(line); {
	case inPanic:
		l.logger.Error(clip(line, size))
	case ok:
		l.logger.Log(entry.level, entry.message, entry.args...)
	case clipped && strings.HasPrefix(line, "{"):
		l.logger.Log(clippedLevel(line), clip(line, size))
	default:
		l.logger.Debug(clip(line, size))
	}
}

// stdoutLine records a line the process printed on its own stdout; the
// handshake line is go-plugin's, not the plugin's output.
func (l *pluginLog) stdoutLine(line []byte, size int) {
	if isHandshake(line) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stdout.add(string(line), size)
}

// firstStdout is the first line the process printed on stdout, other
// than the handshake, if it is still in the tail.
func (l *pluginLog) firstStdout() (tailLine, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.stdout.lines) == 0 {
		return tailLine{}, false
	}
	return l.stdout.lines[0], true
}

// crashNote summarizes why the process died, from what it printed last.
func (l *pluginLog) crashNote() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var note string
	last, ok := l.stderr.last()
	switch {
	case l.panic != "":
		note = l.panic
	case ok:
		if e, ok := parseEntry(last.text); ok && last.size == len(last.text) {
			note = "last log line: " + e.message
		} else {
			note = "last stderr line: " + last.String()
		}
		if n := len(l.stderr.lines); n > 1 {
			note += " (earlier: " + quoteLines(l.stderr.lines[max(0, n-1-crashLines):n-1]) + ")"
		}
	default:
		note = "no output on stderr"
	}
	if n := len(l.stdout.lines); n > 0 {
		note += "; on stdout: " + quoteLines(l.stdout.lines[max(0, n-crashLines):])
	}
	return note
}

// crashLines is how many earlier lines of each stream a crash note quotes.
const crashLines = 3

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
	return &lineWriter{fn: func(line []byte, size int) {
		logger.Error(stdoutPollution(who, clip(string(line), size)))
	}}
}

func stdoutPollution(who, line string) string {
	return fmt.Sprintf("plugin %s wrote to stdout outside the handshake: %q; plugins must log to stderr", who, line)
}

// tailSize is how many lines a tail keeps; tailLineMax how much of each.
const (
	tailSize    = 8
	tailLineMax = 512
)

// tail keeps the last lines of a stream, clipped, with each line's full
// size: what a crash report quotes. Its owner locks it.
type tail struct {
	lines []tailLine // oldest first, at most tailSize
}

type tailLine struct {
	text string // the line's first tailLineMax bytes
	size int    // the line's full length
}

// String is the line, marked with its size when it was clipped.
func (t tailLine) String() string { return clip(t.text, t.size) }

func (t *tail) add(line string, size int) {
	if len(t.lines) == tailSize {
		t.lines = append(t.lines[:0], t.lines[1:]...)
	}
	t.lines = append(t.lines, tailLine{text: line[:min(len(line), tailLineMax)], size: size})
}

func (t *tail) last() (tailLine, bool) {
	if len(t.lines) == 0 {
		return tailLine{}, false
	}
	return t.lines[len(t.lines)-1], true
}

// quoteLines quotes lines for a message, oldest first.
func quoteLines(lines []tailLine) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strconv.Quote(l.String())
	}
	return strings.Join(out, " | ")
}

// clip shortens a line of size bytes to tailLineMax bytes, saying how long
// it was when that cut it.
func clip(line string, size int) string {
	if size <= tailLineMax && size == len(line) {
		return line
	}
	return fmt.Sprintf("%s… (a line of %d bytes, truncated)", strings.ToValidUTF8(line[:min(len(line), tailLineMax)], ""), size)
}

// clippedLevel reads the level of a clipped hclog JSON line from its head:
// hclog writes "@level" first.
func clippedLevel(head string) hclog.Level {
	dec := json.NewDecoder(strings.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return hclog.Debug
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			break
		}
		val, err := dec.Token()
		if err != nil {
			break
		}
		if key == "@level" {
			if s, ok := val.(string); ok {
				if lv := hclog.LevelFromString(s); lv != hclog.NoLevel {
					return lv
				}
			}
			break
		}
		if _, nested := val.(json.Delim); nested {
			break // "@level" comes before any nested value
		}
	}
	return hclog.Debug
}

// isHandshake reports whether line is go-plugin's handshake line
// ("1|1|unix|/tmp/plugin…|grpc|…").
func isHandshake(line []byte) bool {
	parts := bytes.Split(line, []byte("|"))
	return len(parts) >= 4 && len(parts[0]) > 0 && len(bytes.Trim(parts[0], "0123456789")) == 0
}
