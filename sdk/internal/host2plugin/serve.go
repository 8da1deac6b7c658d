package host2plugin

import (
	"context"
	"crypto/tls"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/grpc"
)

// hostPollInterval is how often a plugin checks that its host is alive.
const hostPollInterval = 500 * time.Millisecond

// Serve answers the host's handshake and serves src and/or agent (either
// may be nil) over gRPC until the host stops the plugin, then exits the
// process. Started by hand rather than by nous, go-plugin prints a short
// explanation and exits with status 1.
func Serve(src sdk.Source, agent sdk.Agent, logger hclog.Logger) {
	pc := ServeConfig(src, agent, logger)
	// go-plugin does not stop a plugin whose host was killed outright (its
	// stdin is the host's own, so it never closes), hence the watch.
	go watchHost(os.Getppid(), os.Getppid, hostPollInterval, func() {
		pc.Logger.Info("host process is gone, exiting")
		os.Exit(0)
	})
	plugin.Serve(pc)
	os.Exit(0)
}

// ServeConfig returns the go-plugin configuration Serve runs with: the
// nous handshake, the versioned plugin sets for src and agent, gRPC, TLS
// with the identity the host handed (tls.go), and logger, or JSON lines on
// stderr when it is nil. sdktest uses it to serve
// in-process over the same protocol.
func ServeConfig(src sdk.Source, agent sdk.Agent, logger hclog.Logger) *plugin.ServeConfig {
	if logger == nil {
		logger = hclog.New(&hclog.LoggerOptions{
			Level:      hclog.LevelFromString(os.Getenv("NOUS_PLUGIN_LOG_LEVEL")),
			Output:     os.Stderr,
			JSONFormat: true,
		})
	}
	// Handlers run after go-plugin has swapped os.Stderr (its server starts
	// only then), so the first call is where the swap can be undone.
	var once sync.Once
	direct := func() { once.Do(directStderr) }
	return &plugin.ServeConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: serverPlugins(src, agent, logger),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts,
				grpc.MaxRecvMsgSize(maxMessageBytes),
				grpc.StaticStreamWindowSize(streamWindowBytes),
				grpc.StaticConnWindowSize(connWindowBytes),
				grpc.NumStreamWorkers(streamWorkers),
				grpc.ForceServerCodecV2(wire.Codec{}),
				grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
					direct()
					return h(ctx, req)
				}),
				grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
					direct()
					return h(srv, ss)
				}),
			)...)
		},
		TLSProvider: func() (*tls.Config, error) { return serverTLS(handed, os.Getenv(envClientCert)) },
		Logger:      logger,
	}
}

// The flow-control windows of both ends of a plugin connection. Fixed
// windows turn off gRPC's bandwidth estimator, which answers the first data
// frame of nearly every call with a PING and its ACK: two more frames, TLS
// records and wake-ups per call on a local socket whose bandwidth-delay
// product it has nothing to learn about. The sizes are the estimator's own
// ceiling for the connection (16 MiB), so no more can be in flight than
// before, and a quarter of that per stream, several chunks of a Fetch.
const (
	streamWindowBytes = 4 << 20
	connWindowBytes   = 16 << 20
)

// streamWorkers is how many goroutines a plugin's gRPC server keeps to run
// calls: a call reuses one (and the stack it has grown) instead of
// starting a goroutine whose stack grows again; a call arriving while all
// are busy gets its own goroutine, as without workers.
const streamWorkers = 4

// DialOptions are the gRPC options the host dials a plugin with: the
// windows the plugin's server uses (ServeConfig), so neither end estimates.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithStaticStreamWindowSize(streamWindowBytes),
		grpc.WithStaticConnWindowSize(connWindowBytes),
	}
}

// watchHost calls gone once the process's parent is no longer parent: when
// the host dies, the kernel re-parents the plugin and getppid changes.
func watchHost(parent int, getppid func() int, every time.Duration, gone func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for range t.C {
		if getppid() != parent {
			gone()
			return
		}
	}
}
