// Package sdktest runs a nous plugin implementation in-process over the
// real plugin protocol: the same go-plugin server plugin.Serve runs, the same gRPC
// messages, the same client the nous host uses. A test talks to the
// returned sdk.Source or sdk.Agent exactly as nous would.
//
//	func TestFetch(t *testing.T) {
//		src := sdktest.Source(t, mysource.New())
//		records, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{Kind: "issue"})
//		require.NoError(t, err)
//		assert.Len(t, records, 3)
//	}
//
// A source that implements sdk.Grounder is tested the same way:
//
//	resp, err := sdktest.Ground(ctx, src, sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "pay"}}})
package sdktest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/host2plugin"
)

// Source serves impl over the plugin protocol for the life of the test and
// returns the host's view of it.
func Source(t testing.TB, impl sdk.Source) sdk.Source {
	t.Helper()
	return dispense(t, impl, nil, host2plugin.PluginSource).(sdk.Source)
}

// Agent serves impl over the plugin protocol for the life of the test and
// returns the host's view of it.
func Agent(t testing.TB, impl sdk.Agent) sdk.Agent {
	t.Helper()
	return dispense(t, nil, impl, host2plugin.PluginAgent).(sdk.Agent)
}

// Collect fetches from src and returns every record it emitted, in order,
// with the error Fetch returned.
func Collect(ctx context.Context, src sdk.Source, req sdk.FetchRequest) ([]sdk.Record, error) {
	var records []sdk.Record
	err := src.Fetch(ctx, req, func(r sdk.Record) error {
		records = append(records, r)
		return nil
	})
	return records, err
}

// Ground asks src which of req's terms it knows, over the protocol as nous
// does, with the host's checks of the answer (one per term, in order). src
// is what Source returned; a source without Ground answers all unknown.
func Ground(ctx context.Context, src sdk.Source, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	g, ok := src.(sdk.Grounder)
	if !ok {
		return sdk.GroundResponse{}, fmt.Errorf("sdktest: %T is not the host's view of a source (use sdktest.Source)", src)
	}
	return g.Ground(ctx, req)
}

// dispense starts a go-plugin server for src or agent in test mode, attaches a
// go-plugin client to it and dispenses name. Everything stops at cleanup.
func dispense(t testing.TB, src sdk.Source, agent sdk.Agent, name string) any {
	t.Helper()
	logs := newTestLog(t)
	t.Cleanup(logs.stop) // runs last: cleanups run in reverse
	logger := hclog.New(&hclog.LoggerOptions{Name: "plugin", Output: logs, Level: hclog.Info})

	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	serve := host2plugin.ServeConfig(src, agent, logger)
	serve.Test = &plugin.ServeTestConfig{Context: ctx, ReattachConfigCh: reattach, CloseCh: closed}
	go plugin.Serve(serve)

	var rc *plugin.ReattachConfig
	select {
	case rc = <-reattach:
	case <-closed:
		cancel()
		t.Fatalf("sdktest: the plugin server stopped before it was ready (see the log above)")
	}
	rc.ReattachFunc = func() (runner.AttachedRunner, error) { return inProcess{done: closed}, nil }
	// A reattached client skips version negotiation, so pick the set here.
	plugins, ok := host2plugin.ClientPlugins()[rc.ProtocolVersion]
	if !ok {
		cancel()
		t.Fatalf("sdktest: the plugin speaks protocol %d, this sdk speaks %d", rc.ProtocolVersion, sdk.ProtocolVersion)
	}

	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  host2plugin.Handshake,
		Plugins:          plugins,
		Reattach:         rc,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions:  host2plugin.DialOptions(),
		Logger:           hclog.New(&hclog.LoggerOptions{Name: "host", Output: logs, Level: hclog.Warn}),
	})
	conn, err := client.Client()
	if err != nil {
		cancel()
		t.Fatalf("sdktest: connect to the plugin: %v", err)
	}
	t.Cleanup(func() {
		// Closing the client asks the server to shut down (go-plugin's
		// controller). Cancelling the serve context as well stops it a
		// second way, and go-plugin's GRPCServer.Stop is not safe to run
		// twice at once (it writes its broker field unguarded: a data race
		// seen under -race), so cancel only if it does not stop by itself,
		// and after it stopped, when cancelling is a no-op.
		_ = conn.Close()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			cancel()
			<-closed
		}
		cancel()
	})
	raw, err := conn.Dispense(name)
	if err != nil {
		t.Fatalf("sdktest: dispense %s: %v", name, err)
	}
	return raw
}
