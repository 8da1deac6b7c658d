package host2plugin

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/fromproto"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/grpc"
)

// agentServer serves an sdk.Agent over gRPC, in the plugin process.
type agentServer struct {
	pb.UnimplementedAgentServer
	impl   sdk.Agent
	logger hclog.Logger
}

func (s *agentServer) Describe(ctx context.Context, _ *pb.DescribeRequest) (_ *pb.AgentInfo, err error) {
	defer recoverCall(s.logger, "Describe", &err)
	info, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, statusOf(err)
	}
	if info.SDKVersion == "" {
		info.SDKVersion = sdk.Version
	}
	return toproto.AgentInfo(info), nil
}

func (s *agentServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	return serveConfigure(ctx, s.logger, s.impl, req)
}

// configurer is what Source and Agent share: Configure.
type configurer interface {
	Configure(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error)
}

// serveConfigure answers a Configure call for a Source or an Agent.
func serveConfigure(ctx context.Context, logger hclog.Logger, impl configurer, req *pb.ConfigureRequest) (_ *pb.ConfigureResponse, err error) {
	defer recoverCall(logger, "Configure", &err)
	diags, err := impl.Configure(sdk.WithConfigDir(ctx, req.GetConfigDir()), fromproto.RawJSON(req.GetConfig()))
	if err != nil {
		return nil, statusOf(err)
	}
	return &pb.ConfigureResponse{Diagnostics: toproto.Diagnostics(diags)}, nil
}

func (s *agentServer) Invoke(ctx context.Context, req *pb.InvokeRequest) (*pb.InvokeResponse, error) {
	ir, err := fromproto.InvokeRequest(req)
	return s.invoke(ctx, ir, err)
}

// invoke answers an Invoke call whose request decoded to ir, or failed to
// decode with err.
func (s *agentServer) invoke(ctx context.Context, ir sdk.InvokeRequest, err error) (_ *pb.InvokeResponse, rerr error) {
	defer recoverCall(s.logger, "Invoke", &rerr)
	if err != nil {
		return nil, statusOf(sdk.Errorf(sdk.KindBadRequest, "invoke request: %w", err))
	}
	resp, err := s.impl.Invoke(ctx, ir)
	if err != nil {
		return nil, statusOf(err)
	}
	return toproto.InvokeResponse(resp), nil
}

// agentService is the gRPC service an agent plugin registers: the
// generated Agent service's, except that Invoke's request is decoded
// straight from its bytes (fromproto.ReadInvokeRequest) rather than into
// the generated message and then converted, which took most of a large
// Invoke's time in the plugin. The bytes on the wire are the same.
func agentService() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: pb.Agent_ServiceDesc.ServiceName,
		HandlerType: (*pb.AgentServer)(nil),
		Methods: []grpc.MethodDesc{
			{MethodName: "Describe", Handler: unaryHandler(pb.Agent_Describe_FullMethodName, func(ctx context.Context, s *agentServer, in *pb.DescribeRequest) (any, error) {
				return s.Describe(ctx, in)
			})},
			{MethodName: "Configure", Handler: unaryHandler(pb.Agent_Configure_FullMethodName, func(ctx context.Context, s *agentServer, in *pb.ConfigureRequest) (any, error) {
				return s.Configure(ctx, in)
			})},
			{MethodName: "Invoke", Handler: unaryHandler(pb.Agent_Invoke_FullMethodName, func(ctx context.Context, s *agentServer, in *wire.Incoming) (any, error) {
				ir, err := fromproto.ReadInvokeRequest(in.Bytes)
				return s.invoke(ctx, ir, err)
			})},
		},
		Streams:  []grpc.StreamDesc{},
		Metadata: pb.Agent_ServiceDesc.Metadata,
	}
}

// unaryHandler is a gRPC method handler, as protoc-gen-go-grpc writes
// them, that decodes the request into a new Req and answers with call.
func unaryHandler[Req any](method string, call func(context.Context, *agentServer, *Req) (any, error)) grpc.MethodHandler {
	return func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
		in := new(Req)
		if err := dec(in); err != nil {
			return nil, err
		}
		s := srv.(*agentServer)
		if interceptor == nil {
			return call(ctx, s, in)
		}
		info := &grpc.UnaryServerInfo{Server: srv, FullMethod: method}
		return interceptor(ctx, in, info, func(ctx context.Context, req any) (any, error) {
			return call(ctx, s, req.(*Req))
		})
	}
}

// agentClient is the host's view of an agent plugin: an sdk.Agent whose
// calls go over gRPC. It is safe for concurrent use.
type agentClient struct {
	client pb.AgentClient
	conn   grpc.ClientConnInterface // the client's, for calls that send encoded bytes
	opts   []grpc.CallOption
}

func (c *agentClient) Describe(ctx context.Context) (sdk.AgentInfo, error) {
	resp, err := c.client.Describe(ctx, &pb.DescribeRequest{}, c.opts...)
	if err != nil {
		return sdk.AgentInfo{}, callError(ctx, "agent describe", err)
	}
	return fromproto.AgentInfo(resp), nil
}

func (c *agentClient) Configure(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
	return callConfigure(ctx, c.client, "agent", config, c.opts)
}

// configureClient is the Configure method the generated Source and Agent
// clients share.
type configureClient interface {
	Configure(ctx context.Context, in *pb.ConfigureRequest, opts ...grpc.CallOption) (*pb.ConfigureResponse, error)
}

// callConfigure sends config to a source or agent plugin ("source", "agent").
func callConfigure(ctx context.Context, c configureClient, kind string, config json.RawMessage, opts []grpc.CallOption) (sdk.Diagnostics, error) {
	resp, err := c.Configure(ctx, &pb.ConfigureRequest{Config: config, ConfigDir: sdk.ConfigDir(ctx)}, opts...)
	if err != nil {
		return nil, callError(ctx, kind+" configure", err)
	}
	return fromproto.Diagnostics(resp.GetDiagnostics()), nil
}

// Invoke encodes req straight to its protocol bytes (toproto.AppendInvokeRequest):
// the context records, the bulk of a request, are not built as generated
// messages first, which took most of an Invoke's time and allocations on
// the host once records number in the hundreds.
func (c *agentClient) Invoke(ctx context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	buf, err := toproto.AppendInvokeRequest(make([]byte, 0, toproto.InvokeRequestSize(req)), req)
	if err != nil {
		return sdk.InvokeResponse{}, sdk.Errorf(sdk.KindBadRequest, "invoke request: %w", err)
	}
	resp := new(pb.InvokeResponse)
	err = c.conn.Invoke(ctx, pb.Agent_Invoke_FullMethodName, &wire.Outgoing{Buf: &buf}, resp, c.opts...)
	if err != nil {
		return sdk.InvokeResponse{}, callError(ctx, "invoke", err)
	}
	return fromproto.InvokeResponse(resp), nil
}
