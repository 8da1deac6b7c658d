package host2plugin_test

import (
	"context"
	"net"
	"testing"

	"github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/host2plugin"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// rogueSource is a Source server written against the raw protocol, sending
// whatever a test tells it to: a plugin built with another library, or a
// buggy one.
type rogueSource struct {
	pb.UnimplementedSourceServer
	records []*pb.Record
	diags   []*pb.Diagnostic
}

func (r *rogueSource) Configure(context.Context, *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	return &pb.ConfigureResponse{Diagnostics: r.diags}, nil
}

func (r *rogueSource) Fetch(_ *pb.FetchRequest, s pb.Source_FetchServer) error {
	return s.Send(&pb.FetchResponse{Records: r.records})
}

// hostSource connects the host-side client to a raw gRPC server.
func hostSource(t *testing.T, register func(*grpc.Server)) sdk.Source {
	conn, server := plugin.TestGRPCConn(t, register)
	t.Cleanup(func() { _ = conn.Close(); server.Stop() })
	p := host2plugin.ClientPlugins()[sdk.ProtocolVersion][host2plugin.PluginSource].(plugin.GRPCPlugin)
	raw, err := p.GRPCClient(context.Background(), nil, conn)
	require.NoError(t, err)
	return raw.(sdk.Source)
}

func TestHostRejectsMalformedRecordsClearly(t *testing.T) {
	tests := []struct {
		name   string
		record *pb.Record
		want   string
	}{
		{"value without a type", &pb.Record{Id: "r1", Fields: []*pb.Field{{Name: "x"}}}, `record "r1": field "x": value has no type set`},
		{"duplicate field", &pb.Record{Id: "r2", Fields: []*pb.Field{{Name: "y", Value: &pb.Field_BoolValue{}}, {Name: "y", Value: &pb.Field_IntValue{}}}}, `record "r2": field "y": appears more than once`},
		{"time out of range", &pb.Record{Id: "r4", Time: &timestamppb.Timestamp{Seconds: 1, Nanos: 2_000_000_000}}, `record "r4": time: invalid timestamp`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := hostSource(t, func(s *grpc.Server) {
				pb.RegisterSourceServer(s, &rogueSource{records: []*pb.Record{{Id: "fine"}, tc.record}})
			})
			var got []string
			err := src.Fetch(context.Background(), sdk.FetchRequest{}, func(r sdk.Record) error {
				got = append(got, r.ID)
				return nil
			})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "fetch: malformed record from plugin: "+tc.want)
			assert.Equal(t, []string{"fine"}, got)
		})
	}
}

func TestHostReadsAnUnknownSeverityAsAnError(t *testing.T) {
	src := hostSource(t, func(s *grpc.Server) {
		pb.RegisterSourceServer(s, &rogueSource{diags: []*pb.Diagnostic{{Severity: 9, Summary: "odd"}, nil}})
	})
	diags, err := src.Configure(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, sdk.Diagnostics{
		{Severity: sdk.SeverityError, Summary: "odd"},
		{Severity: sdk.SeverityError},
	}, diags)
}

// pluginConn serves impl with the real plugin-side server (its options,
// codec included) and returns a raw protocol client, to send it what no sdk
// host would.
func pluginConn(t *testing.T, src sdk.Source, agent sdk.Agent) *grpc.ClientConn {
	config := host2plugin.ServeConfig(src, agent, nil)
	server := config.GRPCServer(nil)
	for _, p := range config.VersionedPlugins[sdk.ProtocolVersion] {
		require.NoError(t, p.(plugin.GRPCPlugin).GRPCServer(nil, server))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = server.Serve(l) }()
	conn, err := grpc.NewClient(l.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(); server.Stop() })
	return conn
}

func TestPluginRejectsMalformedRequestsAsBadRequest(t *testing.T) {
	called := false
	conn := pluginConn(t, &fakeSource{fetch: func(context.Context, sdk.FetchRequest, func(sdk.Record) error) error {
		called = true
		return nil
	}}, &fakeAgent{})
	ctx := context.Background()

	stream, err := pb.NewSourceClient(conn).Fetch(ctx, &pb.FetchRequest{Since: &timestamppb.Timestamp{Nanos: -1}})
	require.NoError(t, err)
	_, err = stream.Recv()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "fetch request: since: invalid timestamp")
	assert.False(t, called, "the source never sees a malformed request")

	_, err = pb.NewAgentClient(conn).Invoke(ctx, &pb.InvokeRequest{Context: []*pb.Record{{Id: "c", Fields: []*pb.Field{{Name: "z"}}}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `invoke request: context[0]: record "c": field "z": value has no type set`)
}
