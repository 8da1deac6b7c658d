package sdk

import (
	"fmt"

	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Fetch chunks are encoded and decoded here directly between sdk.Record and
// the protobuf bytes of nous.plugin.v1.FetchResponse, with no generated
// message in between: at 10k records with typed fields that intermediate
// was most of a fetch's allocations on both sides. The bytes are exactly
// what plugin.proto defines (record_wire_test.go checks them against the
// generated code both ways), so a plugin or host built with any protobuf
// library reads them.

// Field numbers of nous.plugin.v1.FetchResponse and Record.
const (
	fetchRecords protowire.Number = 1

	recordID     protowire.Number = 1
	recordSource protowire.Number = 2
	recordKind   protowire.Number = 3
	recordTitle  protowire.Number = 4
	recordBody   protowire.Number = 5
	recordURL    protowire.Number = 6
	recordAuthor protowire.Number = 7
	recordTime   protowire.Number = 8
	recordTier   protowire.Number = 9
	recordFields protowire.Number = 10
)

// lengthGuess is how many bytes appendRecord reserves for a record's
// length: two fit records of 128 B to 16 KiB, the common case, so the
// body rarely moves.
const lengthGuess = 2

// appendRecord appends r to b as one FetchResponse.records entry. On error
// (a field of an unsupported type) b comes back at its original length.
func appendRecord(b []byte, r Record) ([]byte, error) {
	start := len(b)
	b = protowire.AppendTag(b, fetchRecords, protowire.BytesType)
	b = append(b, make([]byte, lengthGuess)...)
	body := len(b)
	b = appendStringField(b, recordID, r.ID)
	b = appendStringField(b, recordSource, r.Source)
	b = appendStringField(b, recordKind, r.Kind)
	b = appendStringField(b, recordTitle, r.Title)
	b = appendStringField(b, recordBody, r.Body)
	b = appendStringField(b, recordURL, r.URL)
	b = appendStringField(b, recordAuthor, r.Author)
	b = wire.AppendTime(b, recordTime, r.Time)
	if r.Tier != 0 {
		b = protowire.AppendVarint(protowire.AppendTag(b, recordTier, protowire.VarintType), uint64(int64(r.Tier)))
	}
	b, err := wire.AppendFields(b, recordFields, r.Fields)
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

// chunkReader reads the records of received FetchResponse chunks in order.
// Their strings point into the chunk's bytes, which are never written
// again; fields is scratch reused from record to record.
type chunkReader struct {
	rest    []byte // the rest of the current chunk
	fields  [][]byte
	decoder wire.FieldDecoder
}

// next returns the next record; ok is false at the end of the chunk.
func (c *chunkReader) next() (r Record, ok bool, err error) {
	for len(c.rest) > 0 {
		num, typ, n := protowire.ConsumeTag(c.rest)
		if n < 0 {
			return Record{}, false, fmt.Errorf("fetch response: %w", protowire.ParseError(n))
		}
		c.rest = c.rest[n:]
		if num != fetchRecords || typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, c.rest)
			if n < 0 || num == fetchRecords {
				return Record{}, false, fmt.Errorf("fetch response: field %d: malformed (wire type %d)", num, typ)
			}
			c.rest = c.rest[n:]
			continue
		}
		body, n := protowire.ConsumeBytes(c.rest)
		if n < 0 {
			return Record{}, false, fmt.Errorf("fetch response: record: %w", protowire.ParseError(n))
		}
		c.rest = c.rest[n:]
		r, err := c.record(body)
		return r, err == nil, err
	}
	return Record{}, false, nil
}

// record decodes one Record message body. Like the generated decoder, it
// keeps the last of a repeated scalar, merges a repeated time and skips
// unknown fields; like recordFromProto, it rejects bad times and fields.
func (c *chunkReader) record(b []byte) (Record, error) {
	var (
		r       Record
		ts      wire.Timestamp
		hasTime bool
	)
	c.fields = c.fields[:0]
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return Record{}, fmt.Errorf("record %q: %w", r.ID, protowire.ParseError(n))
		}
		b = b[n:]
		if num < recordID || num > recordFields {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return Record{}, fmt.Errorf("record %q: %w", r.ID, protowire.ParseError(n))
			}
			b = b[n:]
			continue
		}
		if num == recordTier {
			if typ != protowire.VarintType {
				return Record{}, fmt.Errorf("record %q: tier: wire type %d, want %d", r.ID, typ, protowire.VarintType)
			}
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return Record{}, fmt.Errorf("record %q: tier: %w", r.ID, protowire.ParseError(n))
			}
			r.Tier, b = int(int64(v)), b[n:]
			continue
		}
		if typ != protowire.BytesType {
			return Record{}, fmt.Errorf("record %q: field %d: wire type %d, want %d", r.ID, num, typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return Record{}, fmt.Errorf("record %q: field %d: %w", r.ID, num, protowire.ParseError(n))
		}
		b = b[n:]
		switch num {
		case recordID:
			r.ID = wire.UnsafeString(v)
		case recordSource:
			r.Source = wire.UnsafeString(v)
		case recordKind:
			r.Kind = wire.UnsafeString(v)
		case recordTitle:
			r.Title = wire.UnsafeString(v)
		case recordBody:
			r.Body = wire.UnsafeString(v)
		case recordURL:
			r.URL = wire.UnsafeString(v)
		case recordAuthor:
			r.Author = wire.UnsafeString(v)
		case recordTime:
			if err := wire.ConsumeTime(v, &ts); err != nil {
				return Record{}, fmt.Errorf("record %q: time: %w", r.ID, err)
			}
			hasTime = true
		case recordFields:
			c.fields = append(c.fields, v)
		}
	}
	if hasTime {
		t, err := ts.Time()
		if err != nil {
			return Record{}, fmt.Errorf("record %q: time: %w", r.ID, err)
		}
		r.Time = t
	}
	if len(c.fields) > 0 {
		r.Fields = make(map[string]any, len(c.fields))
		for _, f := range c.fields {
			if err := c.decoder.Decode(f, r.Fields); err != nil {
				return Record{}, fmt.Errorf("record %q: %w", r.ID, err)
			}
		}
	}
	return r, nil
}
