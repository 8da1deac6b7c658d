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
