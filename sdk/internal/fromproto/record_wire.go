package fromproto

import (
	"fmt"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// ChunkReader reads the records of received FetchResponse chunks in order.
// Their strings point into the chunk's bytes, which are never written
// again; fields is scratch reused from record to record.
type ChunkReader struct {
	rest    []byte // the rest of the current chunk
	fields  [][]byte
	decoder wire.FieldDecoder
}

// Reset starts reading chunk, the bytes of one received FetchResponse.
func (c *ChunkReader) Reset(chunk []byte) { c.rest = chunk }

// Next returns the next record; ok is false at the end of the chunk.
func (c *ChunkReader) Next() (r sdk.Record, ok bool, err error) {
	for len(c.rest) > 0 {
		num, typ, n := protowire.ConsumeTag(c.rest)
		if n < 0 {
			return sdk.Record{}, false, fmt.Errorf("fetch response: %w", protowire.ParseError(n))
		}
		c.rest = c.rest[n:]
		if num != wire.FetchRecords || typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, c.rest)
			if n < 0 || num == wire.FetchRecords {
				return sdk.Record{}, false, fmt.Errorf("fetch response: field %d: malformed (wire type %d)", num, typ)
			}
			c.rest = c.rest[n:]
			continue
		}
		body, n := protowire.ConsumeBytes(c.rest)
		if n < 0 {
			return sdk.Record{}, false, fmt.Errorf("fetch response: record: %w", protowire.ParseError(n))
		}
		c.rest = c.rest[n:]
		r, err := c.record(body)
		return r, err == nil, err
	}
	return sdk.Record{}, false, nil
}

// record decodes one Record message body. Like the generated decoder, it
// keeps the last of a repeated scalar, merges a repeated time and skips
// unknown fields; like Record, it rejects bad times and fields.
func (c *ChunkReader) record(b []byte) (sdk.Record, error) {
	var (
		r       sdk.Record
		ts      wire.Timestamp
		hasTime bool
	)
	c.fields = c.fields[:0]
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return sdk.Record{}, fmt.Errorf("record %q: %w", r.ID, protowire.ParseError(n))
		}
		b = b[n:]
		if num < wire.RecordID || num > wire.RecordFields {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return sdk.Record{}, fmt.Errorf("record %q: %w", r.ID, protowire.ParseError(n))
			}
			b = b[n:]
			continue
		}
		if num == wire.RecordTier {
			if typ != protowire.VarintType {
				return sdk.Record{}, fmt.Errorf("record %q: tier: wire type %d, want %d", r.ID, typ, protowire.VarintType)
			}
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return sdk.Record{}, fmt.Errorf("record %q: tier: %w", r.ID, protowire.ParseError(n))
			}
			r.Tier, b = int(int64(v)), b[n:]
			continue
		}
		if typ != protowire.BytesType {
			return sdk.Record{}, fmt.Errorf("record %q: field %d: wire type %d, want %d", r.ID, num, typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return sdk.Record{}, fmt.Errorf("record %q: field %d: %w", r.ID, num, protowire.ParseError(n))
		}
		b = b[n:]
		switch num {
		case wire.RecordID:
			r.ID = wire.UnsafeString(v)
		case wire.RecordSource:
			r.Source = wire.UnsafeString(v)
		case wire.RecordKind:
			r.Kind = wire.UnsafeString(v)
		case wire.RecordTitle:
			r.Title = wire.UnsafeString(v)
		case wire.RecordBody:
			r.Body = wire.UnsafeString(v)
		case wire.RecordURL:
			r.URL = wire.UnsafeString(v)
		case wire.RecordAuthor:
			r.Author = wire.UnsafeString(v)
		case wire.RecordTime:
			if err := wire.ConsumeTime(v, &ts); err != nil {
				return sdk.Record{}, fmt.Errorf("record %q: time: %w", r.ID, err)
			}
			hasTime = true
		case wire.RecordFields:
			c.fields = append(c.fields, v)
		}
	}
	if hasTime {
		t, err := ts.Time()
		if err != nil {
			return sdk.Record{}, fmt.Errorf("record %q: time: %w", r.ID, err)
		}
		r.Time = t
	}
	if len(c.fields) > 0 {
		r.Fields = make(map[string]any, len(c.fields))
		for _, f := range c.fields {
			if err := c.decoder.Decode(f, r.Fields); err != nil {
				return sdk.Record{}, fmt.Errorf("record %q: %w", r.ID, err)
			}
		}
	}
	return r, nil
}
