package durable

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// records carries sdk.Records through Temporal's JSON payloads with their
// typed fields intact: plain JSON would turn an int64 field into a float64
// and a time.Time into a string, and the run would then differ from one
// in memory.
type records []sdk.Record

// wireRecord is a record whose fields say their types.
type wireRecord struct {
	sdk.Record
	Fields map[string]wireField `json:"fields,omitempty"` // shadows Record.Fields
}

// wireField is one typed field value: exactly one member is set.
type wireField struct {
	S *string    `json:"s,omitempty"`
	I *int64     `json:"i,omitempty"`
	F *float64   `json:"f,omitempty"`
	B *bool      `json:"b,omitempty"`
	T *time.Time `json:"t,omitempty"`
	L *[]string  `json:"l,omitempty"`
}

func (rs records) MarshalJSON() ([]byte, error) {
	out := make([]wireRecord, len(rs))
	for i, r := range rs {
		out[i].Record = r
		out[i].Record.Fields = nil
		if len(r.Fields) == 0 {
			continue
		}
		out[i].Fields = make(map[string]wireField, len(r.Fields))
		for k, v := range r.Fields {
			f, err := toWire(v)
			if err != nil {
				return nil, fmt.Errorf("record %q field %q: %w", r.ID, k, err)
			}
			out[i].Fields[k] = f
		}
	}
	return json.Marshal(out)
}

func (rs *records) UnmarshalJSON(b []byte) error {
	var in []wireRecord
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	out := make(records, len(in))
	for i, w := range in {
		out[i] = w.Record
		if len(w.Fields) == 0 {
			continue
		}
		out[i].Fields = make(map[string]any, len(w.Fields))
		for k, f := range w.Fields {
			v, err := f.value()
			if err != nil {
				return fmt.Errorf("record %q field %q: %w", w.ID, k, err)
			}
			out[i].Fields[k] = v
		}
	}
	*rs = out
	return nil
}

// toWire types v, one of the kinds a record field may hold.
func toWire(v any) (wireField, error) {
	switch x := v.(type) {
	case string:
		return wireField{S: &x}, nil
	case int64:
		return wireField{I: &x}, nil
	case int:
		n := int64(x)
		return wireField{I: &n}, nil
	case float64:
		return wireField{F: &x}, nil
	case bool:
		return wireField{B: &x}, nil
	case time.Time:
		return wireField{T: &x}, nil
	case []string:
		if x == nil {
			x = []string{} // null would say no type
		}
		return wireField{L: &x}, nil
	}
	return wireField{}, fmt.Errorf("a value of type %T (want string, int64, float64, bool, time.Time or []string)", v)
}

func (f wireField) value() (any, error) {
	switch {
	case f.S != nil:
		return *f.S, nil
	case f.I != nil:
		return *f.I, nil
	case f.F != nil:
		return *f.F, nil
	case f.B != nil:
		return *f.B, nil
	case f.T != nil:
		return *f.T, nil
	case f.L != nil:
		return *f.L, nil
	}
	return nil, fmt.Errorf("no typed value (want one of s, i, f, b, t, l)")
}

// FetchInput is the Fetch activity's argument.
type FetchInput struct {
	Source  string           `json:"source"`
	Request sdk.FetchRequest `json:"request"`
}

// FetchOutput is what a source emitted, secrets masked. Cut says the
// stream was cut there (by the source, or to keep within Temporal's
// payload limit) and why; the records before it count.
type FetchOutput struct {
	Records records  `json:"records"`
	Cut     *Failure `json:"cut,omitempty"`
}

// InvokeInput is the Invoke activity's argument.
type InvokeInput struct {
	Agent   string        `json:"agent"`
	Request invokeRequest `json:"request"`
}

// invokeRequest is sdk.InvokeRequest with its context records typed.
type invokeRequest struct {
	sdk.InvokeRequest
	Context records `json:"context,omitempty"` // shadows InvokeRequest.Context
}

func wireInvoke(r sdk.InvokeRequest) invokeRequest {
	w := invokeRequest{InvokeRequest: r, Context: r.Context}
	w.InvokeRequest.Context = nil
	return w
}

func (w invokeRequest) request() sdk.InvokeRequest {
	r := w.InvokeRequest
	r.Context = w.Context
	return r
}

// GroundInput is the Ground activity's argument.
type GroundInput struct {
	Source  string            `json:"source"`
	Request sdk.GroundRequest `json:"request"`
}

// Failure is a plugin error as it crosses a workflow boundary: its kind
// and its message, secrets masked.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}
