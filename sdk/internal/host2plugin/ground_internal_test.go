package host2plugin

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// olderSource is the Source service as a plugin built before Ground
// serves it: the generated server without a Ground method.
type olderSource struct {
	pb.UnimplementedSourceServer
}

func (olderSource) Describe(context.Context, *pb.DescribeRequest) (*pb.SourceInfo, error) {
	return &pb.SourceInfo{Name: "old", Filters: []string{"projects", "statuses"}}, nil
}

// dialOlderSource serves olderSource on a loopback port and returns the
// host's client for it.
func dialOlderSource(t *testing.T) *sourceClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := grpc.NewServer(grpc.ForceServerCodecV2(wire.Codec{}))
	pb.RegisterSourceServer(srv, olderSource{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return &sourceClient{client: pb.NewSourceClient(conn), opts: callOptions()}
}

func TestGroundOfAnOlderPluginIsAllUnknownNotAnError(t *testing.T) {
	c := dialOlderSource(t)
	req := sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "PAY"}, {Kind: sdk.TermState, Value: "open"}}}
	got, err := c.Ground(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, sdk.GroundResponse{
		Terms: []sdk.GroundedTerm{
			{Kind: sdk.TermProject, Value: "PAY", Note: notePredatesSDK},
			{Kind: sdk.TermState, Value: "open", Note: notePredatesSDK},
		},
		Filters: []string{"projects", "statuses"},
	}, got)
}

func TestGroundServerEnforcesTheBoundsForAnyHost(t *testing.T) {
	s := &sourceServer{impl: nil, logger: hclog.NewNullLogger()}
	tests := []struct {
		name string
		req  *pb.GroundRequest
		want string
	}{
		{"too many terms", &pb.GroundRequest{Terms: make([]*pb.Term, sdk.MaxGroundTerms+1)}, "257 terms"},
		{"long value", &pb.GroundRequest{Terms: []*pb.Term{{Kind: sdk.TermPath, Value: strings.Repeat("x", 1000)}}}, "1000 bytes"},
		{"nil term", &pb.GroundRequest{Terms: []*pb.Term{nil}}, "empty kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Ground(context.Background(), tt.req)
			require.Error(t, err)
			assert.Equal(t, codes.InvalidArgument, status.Code(err))
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
