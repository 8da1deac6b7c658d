// Package render writes plans in the formats of `nous plan`: JSON for
// programs, text for people, and Graphviz DOT and Mermaid for diagrams.
// Every format is deterministic: the same plan renders to the same bytes.
package render

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/sdk/redact"
)

// Formats lists the format names Write accepts.
var Formats = []string{"json", "text", "dot", "mermaid"}

// Write renders p to w in the named format. Every string of p is masked
// by red (nil masks nothing) before any format quotes or escapes it, so no
// label or JSON escaping can spell a secret red does not know; the
// rendered bytes are masked again.
func Write(w io.Writer, p *engine.Plan, format string, red *redact.Redactor) error {
	var b bytes.Buffer
	if err := write(&b, redact.Value(red, p), format); err != nil {
		return err
	}
	_, err := w.Write(red.Bytes(b.Bytes()))
	return err
}

func write(w io.Writer, p *engine.Plan, format string) error {
	switch format {
	case "json":
		return JSON(w, p)
	case "text":
		return Text(w, p)
	case "dot":
		return DOT(w, p)
	case "mermaid":
		return Mermaid(w, p)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// Levels groups the plan's hypothesis IDs into levels that can run in
// parallel, each after the ones before.
func Levels(p *engine.Plan) ([][]string, error) {
	hyps := p.Reasoning.Hypotheses
	index := make(map[string]int, len(hyps))
	for i, h := range hyps {
		index[h.ID] = i
	}
	g := graph.New(len(hyps))
	for i, h := range hyps {
		for _, d := range h.Dependencies {
			if j, ok := index[d]; ok {
				g.AddEdge(j, i)
			}
		}
	}
	levels, err := g.Levels()
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(levels))
	for l, level := range levels {
		for _, i := range level {
			out[l] = append(out[l], hyps[i].ID)
		}
	}
	return out, nil
}

// errWriter remembers the first write error so renderers can write freely
// and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
