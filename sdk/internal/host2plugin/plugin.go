package host2plugin

import (
	"context"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"google.golang.org/grpc"
)

// Handshake is the go-plugin handshake every nous plugin and host share.
// The magic cookie only tells a binary it was started by nous, not by a
// person at a shell; it is not a security measure.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  sdk.ProtocolVersion,
	MagicCookieKey:   "NOUS_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "b4d1f7e0-nous-plugin-2c9a",
}

// Plugin names in a go-plugin PluginSet; the host dispenses them by name.
const (
	PluginSource = "source"
	PluginAgent  = "agent"
)

// ClientPlugins returns the versioned plugin sets a host gives go-plugin
// (ClientConfig.VersionedPlugins). Dispensing PluginSource yields an
// sdk.Source (and sdk.Grounder) and PluginAgent an sdk.Agent, both calling
// the plugin over gRPC and safe for concurrent use.
func ClientPlugins() map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		sdk.ProtocolVersion: {
			PluginSource: &sourcePlugin{},
			PluginAgent:  &agentPlugin{},
		},
	}
}

// serverPlugins returns the versioned plugin sets a plugin process serves:
// only what it has, so a call to the other service fails with ErrNotServed.
func serverPlugins(src sdk.Source, agent sdk.Agent, logger hclog.Logger) map[int]plugin.PluginSet {
	set := plugin.PluginSet{}
	if src != nil {
		set[PluginSource] = &sourcePlugin{impl: src, logger: logger}
	}
	if agent != nil {
		set[PluginAgent] = &agentPlugin{impl: agent, logger: logger}
	}
	return map[int]plugin.PluginSet{sdk.ProtocolVersion: set}
}

// sourcePlugin is the go-plugin glue for Source: it registers the gRPC
// server in the plugin and builds the client in the host.
type sourcePlugin struct {
	plugin.NetRPCUnsupportedPlugin
	impl   sdk.Source // nil on the host side
	logger hclog.Logger
}

func (p *sourcePlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterSourceServer(s, &sourceServer{impl: p.impl, logger: p.logger, chunks: &chunkPool{}})
	return nil
}

func (p *sourcePlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return sdk.Source(&sourceClient{client: pb.NewSourceClient(conn), opts: callOptions()}), nil
}

// agentPlugin is the go-plugin glue for Agent.
type agentPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	impl   sdk.Agent // nil on the host side
	logger hclog.Logger
}

func (p *agentPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	s.RegisterService(agentService(), &agentServer{impl: p.impl, logger: p.logger})
	return nil
}

func (p *agentPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return sdk.Agent(&agentClient{client: pb.NewAgentClient(conn), conn: conn, opts: callOptions()}), nil
}
