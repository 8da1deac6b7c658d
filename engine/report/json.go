package report

import (
	"bytes"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/jsonindent"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/trace"
)

// Document is the JSON format: the plan, the result, the execution
// history and the reasoning trace (absent when the rules turn it off).
type Document struct {
	Plan    *engine.Plan     `json:"plan"`
	Result  *runner.Result   `json:"result"`
	History *history.History `json:"history"`
	Trace   []trace.Entry    `json:"trace,omitzero"`
}

func renderJSON(b *bytes.Buffer, res *runner.Result) error {
	doc := Document{Plan: res.Plan, Result: res, History: res.History, Trace: res.Trace}
	if doc.Trace == nil && !traceOff(res) {
		doc.Trace = []trace.Entry{}
	}
	d := &writable{doc: &doc}
	err := encodeIndented(b, d) // writes nothing when it fails
	if !d.failed {
		return err
	}
	b.Reset()
	return encodeIndented(b, doc) // a value encoding/json refuses: its error
}

// traceOff reports whether the rules turned res's trace off.
func traceOff(res *runner.Result) bool {
	return res.Plan != nil && res.Plan.Policy != nil && res.Plan.Policy.TraceOff
}

// encodeIndented writes v as two-space indented JSON, leaving <, > and &
// as they are (reports quote code and URLs).
func encodeIndented(b *bytes.Buffer, v any) error { return jsonindent.Encode(b, v) }
