package toproto

import (
	"fmt"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Fetch chunks are encoded here directly from sdk.Record to the protobuf
// bytes of nous.plugin.v1.FetchResponse, with no generated message in
// between: at 10k records with typed fields that intermediate was most of a
// fetch's allocations. The bytes are exactly what plugin.proto defines
// (fromproto's record_wire_test.go checks them against the generated code
// both ways), so a host built with any protobuf library reads them.

// lengthGuess is how many bytes AppendRecord reserves for a record's
// length: two fit records of 128 B to 16 KiB, the common case, so the
// body rarely moves.
const lengthGuess = 2

// AppendRecord appends r to b as one FetchResponse.records entry. On error
// (a field of an unsupported type) b comes back at its original length.
func AppendRecord(b []byte, r sdk.Record) ([]byte, error) {
	return appendRecord(b, wire.FetchRecords, r)
}

// AppendInvokeRequest appends r to b as the bytes of an InvokeRequest,
// its context records encoded as AppendRecord encodes them: the host's
// Invoke sends it without building the generated message first. It fails,
// as InvokeRequest does, on a context record it cannot convert; b then
// comes back at its original length.
func AppendInvokeRequest(b []byte, r sdk.InvokeRequest) ([]byte, error) {
	start := len(b)
	b = appendStringField(b, wire.InvokeRole, r.Role)
	b = appendStringField(b, wire.InvokeInstructions, r.Instructions)
	b = appendBytesField(b, wire.InvokeInput, r.Input)
	for i, rec := range r.Context {
		var err error
		if b, err = appendRecord(b, wire.InvokeContext, rec); err != nil {
			return b[:start], fmt.Errorf("context[%d]: %w", i, err)
		}
	}
	return appendBytesField(b, wire.InvokeSchema, r.Schema), nil
}

// InvokeRequestSize is a guess at the encoded size of r, for the buffer
// AppendInvokeRequest appends to: the sizes of its strings and records'
// text, which the encoding holds plus a little framing.
func InvokeRequestSize(r sdk.InvokeRequest) int {
	n := 64 + len(r.Role) + len(r.Instructions) + len(r.Input) + len(r.Schema)
	for i := range r.Context {
		c := &r.Context[i]
		n += 48 + len(c.ID) + len(c.Source) + len(c.Kind) + len(c.Title) + len(c.Body) + len(c.URL) + len(c.Author) + 32*len(c.Fields)
	}
	return n
}

// appendRecord appends r to b as a Record in field num.
func appendRecord(b []byte, num protowire.Number, r sdk.Record) ([]byte, error) {
	start := len(b)
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = append(b, make([]byte, lengthGuess)...)
	body := len(b)
	b = appendStringField(b, wire.RecordID, r.ID)
	b = appendStringField(b, wire.RecordSource, r.Source)
	b = appendStringField(b, wire.RecordKind, r.Kind)
	b = appendStringField(b, wire.RecordTitle, r.Title)
	b = appendStringField(b, wire.RecordBody, r.Body)
	b = appendStringField(b, wire.RecordURL, r.URL)
	b = appendStringField(b, wire.RecordAuthor, r.Author)
	b = wire.AppendTime(b, wire.RecordTime, r.Time)
	if r.Tier != 0 {
		b = protowire.AppendVarint(protowire.AppendTag(b, wire.RecordTier, protowire.VarintType), uint64(int64(r.Tier)))
	}
	b, err := wire.AppendFields(b, wire.RecordFields, r.Fields)
	if err != nil {
		return b[:start], fmt.Errorf("record %q: %w", r.ID, err)
	}
	// Put the length before the body, moving the body if the guess was wrong.
	n := len(b) - body
	if shift := protowire.SizeVarint(uint64(n)) - lengthGuess; shift != 0 {
		if shift > 0 {
			b = append(b, make([]byte, shift)...)
		}
		copy(b[body+shift:], b[body:body+n])
		b = b[:body+shift+n]
	}
	protowire.AppendVarint(b[body-lengthGuess:body-lengthGuess], uint64(n))
	return b, nil
}

// appendBytesField appends a proto3 bytes field; empty ones are absent.
func appendBytesField(b []byte, num protowire.Number, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

// appendStringField appends a proto3 string field; empty ones are absent.
func appendStringField(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), wire.ValidUTF8(s))
}
