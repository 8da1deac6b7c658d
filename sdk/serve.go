package sdk

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/grpc"
)

// hostPollInterval is how often a plugin checks that its host is alive.
const hostPollInterval = 500 * time.Millisecond

// Serve runs the plugin: it answers the host's handshake and serves cfg's
// Source and/or Agent over gRPC until the host stops it. It is what a
// plugin's main calls and it does not return. Started by hand rather than
// by nous, it prints a short explanation and exits with status 1.
func Serve(cfg ServeConfig) {
	if cfg.Source == nil && cfg.Agent == nil {
		fmt.Fprintln(os.Stderr, "sdk.Serve: the ServeConfig names neither a Source nor an Agent")
		os.Exit(1)
	}
	pc := cfg.PluginConfig()
	// go-plugin does not stop a plugin whose host was killed outright (its
	// stdin is the host's own, so it never closes), hence the watch.
	go watchHost(os.Getppid(), os.Getppid, hostPollInterval, func() {
		pc.Logger.Info("host process is gone, exiting")
		os.Exit(0)
	})
	plugin.Serve(pc)
	os.Exit(0)
}

// PluginConfig returns the go-plugin configuration Serve runs with: the
// nous handshake, the versioned plugin sets for what c names, gRPC, and the
// logger. sdktest uses it to serve in-process over the same protocol.
func (c ServeConfig) PluginConfig() *plugin.ServeConfig {
	logger := c.Logger
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
		VersionedPlugins: serverPlugins(c, logger),
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
		Logger: logger,
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
