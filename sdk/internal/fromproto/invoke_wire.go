package fromproto

import (
	"fmt"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// ReadInvokeRequest decodes b, the bytes of a received InvokeRequest,
// straight to an sdk.InvokeRequest, its context records as ChunkReader
// decodes a fetch's: what the generated message and InvokeRequest would
// give, without a generated Record and Field for every record and field.
// Its strings and JSON point into b, which is never written again. Like the
// generated decoder it keeps the last of a repeated scalar and skips
// unknown fields.
func ReadInvokeRequest(b []byte) (sdk.InvokeRequest, error) {
	var (
		req     sdk.InvokeRequest
		records ChunkReader
	)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return sdk.InvokeRequest{}, protowire.ParseError(n)
		}
		b = b[n:]
		if num < wire.InvokeRole || num > wire.InvokeSchema {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return sdk.InvokeRequest{}, fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
			}
			b = b[n:]
			continue
		}
		if typ != protowire.BytesType {
			return sdk.InvokeRequest{}, fmt.Errorf("field %d: wire type %d, want %d", num, typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return sdk.InvokeRequest{}, fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		switch num {
		case wire.InvokeRole:
			req.Role = wire.UnsafeString(v)
		case wire.InvokeInstructions:
			req.Instructions = wire.UnsafeString(v)
		case wire.InvokeInput:
			req.Input = RawJSON(v)
		case wire.InvokeSchema:
			req.Schema = RawJSON(v)
		case wire.InvokeContext:
			r, err := records.record(v)
			if err != nil {
				return sdk.InvokeRequest{}, fmt.Errorf("context[%d]: %w", len(req.Context), err)
			}
			req.Context = append(req.Context, r)
		}
	}
	return req, nil
}
