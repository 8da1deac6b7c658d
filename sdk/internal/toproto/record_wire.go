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
	start := len(b)
	b = protowire.AppendTag(b, wire.FetchRecords, protowire.BytesType)
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

// appendStringField appends a proto3 string field; empty ones are absent.
func appendStringField(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), wire.ValidUTF8(s))
}
