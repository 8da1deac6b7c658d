package host2plugin

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/fromproto"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/grpc"
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
	impl   sdk.Source
	logger hclog.Logger
	chunks *chunkPool
}

func (s *sourceServer) Describe(ctx context.Context, _ *pb.DescribeRequest) (_ *pb.SourceInfo, err error) {
	defer recoverCall(s.logger, "Describe", &err)
	info, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, statusOf(err)
	}
	if info.SDKVersion == "" {
		info.SDKVersion = sdk.Version
	}
	return toproto.SourceInfo(info), nil
}

func (s *sourceServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	return serveConfigure(ctx, s.logger, s.impl, req)
}

func (s *sourceServer) Fetch(req *pb.FetchRequest, stream pb.Source_FetchServer) (err error) {
	defer recoverCall(s.logger, "Fetch", &err)
	fr, err := fromproto.FetchRequest(req)
	if err != nil {
		return statusOf(sdk.Errorf(sdk.KindBadRequest, "fetch request: %w", err))
	}
	ctx := stream.Context()
	c := &chunker{ctx: ctx, send: stream.SendMsg, pool: s.chunks, age: chunkAge, limit: fr.Limit}
	// A panic becomes an error here, inside the call, so the records
	// emitted before it are still flushed.
	err = guard(s.logger, "Fetch", func() error { return s.impl.Fetch(ctx, fr, c.emit) })
	// Records emitted before a failure are still sent: the host keeps them.
	if flushErr := c.close(); err == nil || errors.Is(err, errLimitReached) {
		err = flushErr
	}
	if err != nil {
		return statusOf(err)
	}
	return nil
}

// sourceClient is the host's view of a source plugin: an sdk.Source whose
// calls go over gRPC. It is safe for concurrent use.
type sourceClient struct {
	client pb.SourceClient
	opts   []grpc.CallOption
}

func (c *sourceClient) Describe(ctx context.Context) (sdk.SourceInfo, error) {
	resp, err := c.client.Describe(ctx, &pb.DescribeRequest{}, c.opts...)
	if err != nil {
		return sdk.SourceInfo{}, callError(ctx, "source describe", err)
	}
	return fromproto.SourceInfo(resp), nil
}

func (c *sourceClient) Configure(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
	return callConfigure(ctx, c.client, "source", config, c.opts)
}

func (c *sourceClient) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	preq, err := toproto.FetchRequest(req)
	if err != nil {
		return sdk.Errorf(sdk.KindBadRequest, "fetch request: %w", err)
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
	var chunk fromproto.ChunkReader
	for {
		// Chunks are decoded here rather than by the codec (see
		// fromproto.ChunkReader).
		var in wire.Incoming
		err := stream.RecvMsg(&in)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return callError(ctx, "fetch", err)
		}
		chunk.Reset(in.Bytes)
		for {
			r, ok, err := chunk.Next()
			if err != nil {
				return sdk.Errorf(sdk.KindUnknown, "fetch: malformed record from plugin: %w", err)
			}
			if !ok {
				break
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
