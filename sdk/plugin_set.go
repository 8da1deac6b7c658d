package sdk

import (
	"context"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"google.golang.org/grpc"
)

// Plugin names in a go-plugin PluginSet; the host dispenses them by name.
const (
	PluginSource = "source"
	PluginAgent  = "agent"
)

// ClientPlugins returns the versioned plugin sets a host gives go-plugin
// (ClientConfig.VersionedPlugins). Dispensing PluginSource yields an
// sdk.Source and PluginAgent an sdk.Agent, both calling the plugin over
// gRPC and safe for concurrent use.
func ClientPlugins() map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		ProtocolVersion: {
			PluginSource: &sourcePlugin{},
			PluginAgent:  &agentPlugin{},
		},
	}
}

// serverPlugins returns the versioned plugin sets a plugin process serves:
// only what cfg names, so a call to the other service fails with
// ErrNotServed.
func serverPlugins(cfg ServeConfig, logger hclog.Logger) map[int]plugin.PluginSet {
	set := plugin.PluginSet{}
	if cfg.Source != nil {
		set[PluginSource] = &sourcePlugin{impl: cfg.Source, logger: logger}
	}
	if cfg.Agent != nil {
		set[PluginAgent] = &agentPlugin{impl: cfg.Agent, logger: logger}
	}
	return map[int]plugin.PluginSet{ProtocolVersion: set}
}

// sourcePlugin is the go-plugin glue for Source: it registers the gRPC
// server in the plugin and builds the client in the host.
type sourcePlugin struct {
	plugin.NetRPCUnsupportedPlugin
	impl   Source // nil on the host side
	logger hclog.Logger
}

func (p *sourcePlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterSourceServer(s, &sourceServer{impl: p.impl, logger: p.logger, chunks: &chunkPool{}})
	return nil
}

func (p *sourcePlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return Source(&sourceClient{client: pb.NewSourceClient(conn), opts: callOptions()}), nil
}

// agentPlugin is the go-plugin glue for Agent.
type agentPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	impl   Agent // nil on the host side
	logger hclog.Logger
}

func (p *agentPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterAgentServer(s, &agentServer{impl: p.impl, logger: p.logger})
	return nil
}

func (p *agentPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return Agent(&agentClient{client: pb.NewAgentClient(conn), opts: callOptions()}), nil
}
