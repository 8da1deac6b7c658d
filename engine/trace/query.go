package trace

import (
	"strconv"
	"strings"
)

// Summary formats the last maxEntries entries (all when maxEntries ≤ 0) for
// a prompt, oldest first; with correctionsOnly only entries that carry
// corrections. It returns "" when nothing matches.
func (t *Trace) Summary(maxEntries int, correctionsOnly bool) string {
	if t.off {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(t.entries)
	if maxEntries > 0 {
		n = min(n, maxEntries)
	}
	picked := make([]int, 0, n)
	for i := len(t.entries) - 1; i >= 0 && (maxEntries <= 0 || len(picked) < maxEntries); i-- {
		if !correctionsOnly || len(t.entries[i].Corrections) > 0 {
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(64 + 96*len(picked))
	b.WriteString("Reasoning trace (")
	b.WriteString(strconv.Itoa(len(picked)))
	b.WriteString(" of ")
	b.WriteString(strconv.Itoa(len(t.entries)))
	b.WriteString(" entries):\n")
	for j := len(picked) - 1; j >= 0; j-- {
		writeLine(&b, &t.entries[picked[j]])
	}
	return b.String()
}

func writeLine(b *strings.Builder, e *Entry) {
	b.WriteString("- [")
	b.WriteString(string(e.Stage))
	b.WriteString("] ")
	b.WriteString(e.Thought)
	if e.Action != "" {
		b.WriteString(" -> ")
		b.WriteString(e.Action)
	}
	b.WriteString(" (")
	b.WriteString(string(e.Outcome))
	b.WriteByte(')')
	writeList(b, "evidence", e.Evidence)
	if e.Error != "" {
		b.WriteString("; error: ")
		b.WriteString(e.Error)
	}
	writeList(b, "corrections", e.Corrections)
	b.WriteByte('\n')
}

func writeList(b *strings.Builder, label string, items []string) {
	if len(items) == 0 {
		return
	}
	b.WriteString("; ")
	b.WriteString(label)
	b.WriteString(": ")
	for i, s := range items {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(s)
	}
}

// PendingCommitments lists, in the order first made, the commitments no
// successful entry fulfils.
func (t *Trace) PendingCommitments() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	fulfilled := map[string]bool{}
	for i := range t.entries {
		if t.entries[i].Outcome == Success {
			for _, c := range t.entries[i].Fulfills {
				fulfilled[c] = true
			}
		}
	}
	var pending []string
	seen := map[string]bool{}
	for i := range t.entries {
		for _, c := range t.entries[i].Commitments {
			if !fulfilled[c] && !seen[c] {
				seen[c] = true
				pending = append(pending, c)
			}
		}
	}
	return pending
}

// Attachments returns every entry's attachments, in entry order.
func (t *Trace) Attachments() []map[string]any {
	if t.off {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []map[string]any
	for i := range t.entries {
		out = append(out, t.entries[i].Attachments...)
	}
	return out
}

// Corrections returns every entry's corrections, in entry order.
func (t *Trace) Corrections() []string {
	if t.off {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for i := range t.entries {
		out = append(out, t.entries[i].Corrections...)
	}
	return out
}
