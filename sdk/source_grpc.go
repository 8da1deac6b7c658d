package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk/internal/wire"
	pb "github.com/nous-dev/nous/sdk/proto/pluginv1"
	"google.golang.org/grpc"
)

// Chunking of Fetch streams: a chunk is sent when it holds chunkRecords
// records or about chunkBytes bytes, or when a record arrives more than
// chunkAge after the chunk's first one, so slow sources still trickle.
const (
	chunkRecords = 512
	chunkBytes   = 1 << 20
	chunkAge     = 10 * time.Millisecond
)

// maxMessageBytes bounds one protocol message (a chunk, an Invoke with its
// context records). gRPC's default of 4 MiB is too small for large documents.
const maxMessageBytes = 64 << 20

// callOptions are the options of every host-side call: the fast codec and
// the message size bound.
func callOptions() []grpc.CallOption {
	return []grpc.CallOption{
		grpc.ForceCodecV2(wire.Codec{}),
		grpc.MaxCallRecvMsgSize(maxMessageBytes),
		grpc.MaxCallSendMsgSize(maxMessageBytes),
	}
}

// errLimitReached stops a Fetch that has emitted FetchRequest.Limit records.
var errLimitReached = errors.New("limit reached")

// sourceServer serves an sdk.Source over gRPC, in the plugin process.
type sourceServer struct {
	pb.UnimplementedSourceServer
	impl   Source
	logger hclog.Logger
}

func (s *sourceServer) Describe(ctx context.Context, _ *pb.DescribeRequest) (_ *pb.SourceInfo, err error) {
	defer recoverCall(s.logger, "Describe", &err)
	info, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, statusOf(err)
	}
	if info.SDKVersion == "" {
		info.SDKVersion = Version
	}
	return sourceInfoToProto(info), nil
}

func (s *sourceServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (_ *pb.ConfigureResponse, err error) {
	defer recoverCall(s.logger, "Configure", &err)
	diags, err := s.impl.Configure(ctx, rawJSON(req.GetConfig()))
	if err != nil {
		return nil, statusOf(err)
	}
	return &pb.ConfigureResponse{Diagnostics: diagnosticsToProto(diags)}, nil
}

func (s *sourceServer) Fetch(req *pb.FetchRequest, stream pb.Source_FetchServer) (err error) {
	defer recoverCall(s.logger, "Fetch", &err)
	fr, err := fetchRequestFromProto(req)
	if err != nil {
		return statusOf(Errorf(KindBadRequest, "fetch request: %w", err))
	}
	ctx := stream.Context()
	c := &chunker{ctx: ctx, send: stream.Send, limit: fr.Limit}
	// A panic becomes an error here, inside the call, so the records
	// emitted before it are still flushed.
	err = guard(s.logger, "Fetch", func() error { return s.impl.Fetch(ctx, fr, c.emit) })
	// Records emitted before a failure are still sent: the host keeps them.
	if flushErr := c.flush(); err == nil || errors.Is(err, errLimitReached) {
		err = flushErr
	}
	if err != nil {
		return statusOf(err)
	}
	return nil
}

// chunker batches emitted records into FetchResponse messages.
type chunker struct {
	ctx     context.Context
	send    func(*pb.FetchResponse) error
	limit   int
	emitted int
	pending []*pb.Record
	bytes   int
	first   time.Time
}

func (c *chunker) emit(r Record) error {
	if err := c.ctx.Err(); err != nil {
		return &Error{Kind: KindDeadline, Message: "fetch ended by the host: " + err.Error(), Err: err}
	}
	if c.limit > 0 && c.emitted >= c.limit {
		return errLimitReached
	}
	p, err := recordToProto(r)
	if err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	if len(c.pending) == 0 {
		c.first = time.Now()
	}
	c.pending = append(c.pending, p)
	c.bytes += approxSize(r)
	c.emitted++
	if len(c.pending) >= chunkRecords || c.bytes >= chunkBytes || time.Since(c.first) >= chunkAge {
		return c.flush()
	}
	return nil
}

func (c *chunker) flush() error {
	if len(c.pending) == 0 {
		return nil
	}
	err := c.send(&pb.FetchResponse{Records: c.pending})
	c.pending, c.bytes = nil, 0
	if err != nil {
		return fmt.Errorf("send records: %w", err)
	}
	return nil
}

// approxSize estimates a record's encoded size without encoding it.
func approxSize(r Record) int {
	n := 64 + len(r.ID) + len(r.Source) + len(r.Kind) + len(r.Title) + len(r.Body) + len(r.URL) + len(r.Author)
	for k, v := range r.Fields {
		n += len(k) + 16
		switch v := v.(type) {
		case string:
			n += len(v)
		case []string:
			for _, s := range v {
				n += len(s) + 2
			}
		}
	}
	return n
}

// sourceClient is the host's view of a source plugin: an sdk.Source whose
// calls go over gRPC. It is safe for concurrent use.
type sourceClient struct {
	client pb.SourceClient
	opts   []grpc.CallOption
}

func (c *sourceClient) Describe(ctx context.Context) (SourceInfo, error) {
	resp, err := c.client.Describe(ctx, &pb.DescribeRequest{}, c.opts...)
	if err != nil {
		return SourceInfo{}, callError(ctx, "source describe", err)
	}
	return sourceInfoFromProto(resp), nil
}

func (c *sourceClient) Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error) {
	resp, err := c.client.Configure(ctx, &pb.ConfigureRequest{Config: config}, c.opts...)
	if err != nil {
		return nil, callError(ctx, "source configure", err)
	}
	return diagnosticsFromProto(resp.GetDiagnostics()), nil
}

func (c *sourceClient) Fetch(ctx context.Context, req FetchRequest, emit func(Record) error) error {
	preq, err := fetchRequestToProto(req)
	if err != nil {
		return Errorf(KindBadRequest, "fetch request: %w", err)
	}
	// Cancelling the stream on return tells the plugin to stop producing
	// when emit fails or the limit is reached.
	streamCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.client.Fetch(streamCtx, preq, c.opts...)
	if err != nil {
		return callError(ctx, "fetch", err)
	}
	received := 0
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return callError(ctx, "fetch", err)
		}
		for _, p := range resp.GetRecords() {
			r, err := recordFromProto(p)
			if err != nil {
				return Errorf(KindUnknown, "fetch: malformed record from plugin: %w", err)
			}
			if err := emit(r); err != nil {
				return err
			}
			received++
			if req.Limit > 0 && received >= req.Limit {
				return nil
			}
		}
	}
}
