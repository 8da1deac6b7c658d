package sdk

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/go-hclog"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"google.golang.org/grpc"
)

// agentServer serves an sdk.Agent over gRPC, in the plugin process.
type agentServer struct {
	pb.UnimplementedAgentServer
	impl   Agent
	logger hclog.Logger
}

func (s *agentServer) Describe(ctx context.Context, _ *pb.DescribeRequest) (_ *pb.AgentInfo, err error) {
	defer recoverCall(s.logger, "Describe", &err)
	info, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, statusOf(err)
	}
	if info.SDKVersion == "" {
		info.SDKVersion = Version
	}
	return agentInfoToProto(info), nil
}

func (s *agentServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	return serveConfigure(ctx, s.logger, s.impl, req)
}

// configurer is what Source and Agent share: Configure.
type configurer interface {
	Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error)
}

// serveConfigure answers a Configure call for a Source or an Agent.
func serveConfigure(ctx context.Context, logger hclog.Logger, impl configurer, req *pb.ConfigureRequest) (_ *pb.ConfigureResponse, err error) {
	defer recoverCall(logger, "Configure", &err)
	diags, err := impl.Configure(WithConfigDir(ctx, req.GetConfigDir()), rawJSON(req.GetConfig()))
	if err != nil {
		return nil, statusOf(err)
	}
	return &pb.ConfigureResponse{Diagnostics: diagnosticsToProto(diags)}, nil
}

func (s *agentServer) Invoke(ctx context.Context, req *pb.InvokeRequest) (_ *pb.InvokeResponse, err error) {
	defer recoverCall(s.logger, "Invoke", &err)
	ir, err := invokeRequestFromProto(req)
	if err != nil {
		return nil, statusOf(Errorf(KindBadRequest, "invoke request: %w", err))
	}
	resp, err := s.impl.Invoke(ctx, ir)
	if err != nil {
		return nil, statusOf(err)
	}
	return invokeResponseToProto(resp), nil
}

// agentClient is the host's view of an agent plugin: an sdk.Agent whose
// calls go over gRPC. It is safe for concurrent use.
type agentClient struct {
	client pb.AgentClient
	opts   []grpc.CallOption
}

func (c *agentClient) Describe(ctx context.Context) (AgentInfo, error) {
	resp, err := c.client.Describe(ctx, &pb.DescribeRequest{}, c.opts...)
	if err != nil {
		return AgentInfo{}, callError(ctx, "agent describe", err)
	}
	return agentInfoFromProto(resp), nil
}

func (c *agentClient) Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error) {
	return callConfigure(ctx, c.client, "agent", config, c.opts)
}

// configureClient is the Configure method the generated Source and Agent
// clients share.
type configureClient interface {
	Configure(ctx context.Context, in *pb.ConfigureRequest, opts ...grpc.CallOption) (*pb.ConfigureResponse, error)
}

// callConfigure sends config to a source or agent plugin ("source", "agent").
func callConfigure(ctx context.Context, c configureClient, kind string, config json.RawMessage, opts []grpc.CallOption) (Diagnostics, error) {
	resp, err := c.Configure(ctx, &pb.ConfigureRequest{Config: config, ConfigDir: ConfigDir(ctx)}, opts...)
	if err != nil {
		return nil, callError(ctx, kind+" configure", err)
	}
	return diagnosticsFromProto(resp.GetDiagnostics()), nil
}

func (c *agentClient) Invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error) {
	preq, err := invokeRequestToProto(req)
	if err != nil {
		return InvokeResponse{}, Errorf(KindBadRequest, "invoke request: %w", err)
	}
	resp, err := c.client.Invoke(ctx, preq, c.opts...)
	if err != nil {
		return InvokeResponse{}, callError(ctx, "invoke", err)
	}
	return invokeResponseFromProto(resp), nil
}
