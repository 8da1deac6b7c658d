package plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
	sdkplugin "github.com/nous-dev/nous/sdk/plugin"
	"google.golang.org/grpc"
)

// The test binary doubles as every plugin the tests need: started as
// nous-plugin-MODE (a symlink) or with the arguments "plugin serve MODE"
// (the builtin: form), it serves the plugin MODE instead of running tests.

// Queries that make the echo source misbehave on purpose, mid-stream.
const (
	queryPanic  = "panic"  // panic inside Fetch (the sdk recovers it)
	queryCrash  = "crash"  // the process dies mid-stream
	queryHang   = "hang"   // never returns, ignoring its context
	queryStdout = "stdout" // prints on stdout during the call
	queryLog    = "log"    // logs a line at info with a field
	querySecret = "secret" // fails with a message containing the config's token
	queryLast   = "last"   // prints a last stderr line, then exits at once
	queryBigLog = "biglog" // logs one error line longer than 64 KiB, then fails
	queryProcs  = "procs"  // the record's gomaxprocs field is the process's GOMAXPROCS
)

// bigBanner is the length of the bigbanner plugin's stdout line.
const bigBanner = 200 << 10

// lastWords is what the last query prints on stderr before it exits.
const lastWords = "echo: the disk is on fire, giving up"

// pluginMode reports which test plugin args ask for, if any.
func pluginMode(args []string) (string, bool) {
	if name, ok := strings.CutPrefix(filepath.Base(args[0]), "nous-plugin-"); ok {
		return name, true
	}
	if len(args) == 4 && args[1] == "plugin" && args[2] == "serve" {
		return args[3], true
	}
	return "", false
}

// servePlugin runs the test plugin mode and never returns.
func servePlugin(mode string) {
	switch mode {
	case "echo":
		// Light, as the template agent and the file source are: one thread.
		sdkplugin.Serve(sdkplugin.Config{Source: &echoSource{}, Agent: &echoAgent{}, MaxProcs: 1})
	case "echo-allprocs":
		sdkplugin.Serve(sdkplugin.Config{Source: &echoSource{}, Agent: &echoAgent{}})
	case "source-only":
		sdkplugin.Serve(sdkplugin.Config{Source: &echoSource{}})
	case "counting":
		sdkplugin.Serve(sdkplugin.Config{Source: &countingSource{echoSource: &echoSource{}}})
	case "nogroup":
		sdkplugin.Serve(sdkplugin.Config{Source: plainSource{&echoSource{}}})
	case "banner":
		// The classic mistake: a greeting on stdout before the handshake.
		fmt.Println("echo plugin v1.2.3 starting")
		sdkplugin.Serve(sdkplugin.Config{Source: &echoSource{}})
	case "oldproto", "newproto":
		v := sdk.ProtocolVersion - 1
		if mode == "newproto" {
			v = sdk.ProtocolVersion + 1
		}
		hs := host.Handshake
		hs.ProtocolVersion = uint(v)
		goplugin.Serve(&goplugin.ServeConfig{
			HandshakeConfig: hs,
			Plugins:         goplugin.PluginSet{},
			Logger:          hclog.New(&hclog.LoggerOptions{Output: os.Stderr, JSONFormat: true}),
		})
	case "oldsdk":
		// A plugin on an older SDK, or plain go-plugin: it ignores the
		// identity the host hands it and does go-plugin's AutoMTLS. Run
		// again, this binary no longer finds the identity (the SDK took it
		// out of the environment), so the echo plugin falls back.
		exe, err := os.Executable()
		if err == nil {
			err = syscall.Exec(exe, []string{exe, "plugin", "serve", "env"}, os.Environ())
		}
		fmt.Fprintln(os.Stderr, "oldsdk:", err)
		os.Exit(2)
	case "env":
		sdkplugin.Serve(sdkplugin.Config{Source: envSource{&echoSource{}}})
	case "notls":
		// A plugin that offers no TLS: go-plugin serves in the clear when
		// it is given no client certificate.
		_ = os.Unsetenv("PLUGIN_CLIENT_CERT")
		goplugin.Serve(&goplugin.ServeConfig{
			HandshakeConfig:  host.Handshake,
			VersionedPlugins: map[int]goplugin.PluginSet{sdk.ProtocolVersion: {host.PluginSource: bareGRPC{}}},
			GRPCServer:       goplugin.DefaultGRPCServer,
			Logger:           hclog.New(&hclog.LoggerOptions{Output: os.Stderr, JSONFormat: true}),
		})
	case "mute":
		// Starts but never completes the handshake.
		fmt.Fprintln(os.Stderr, "mute: waiting for a license server")
		time.Sleep(time.Hour)
	case "exit":
		fmt.Fprintln(os.Stderr, "echo: cannot open /nonexistent/config.json")
		os.Exit(3)
	case "ident":
		// Says which binary runs: the trailer a test appended to its copy.
		sdkplugin.Serve(sdkplugin.Config{Source: identSource{&echoSource{}}})
	case "spawner":
		// Starts a child that would sleep for an hour, then serves.
		sdkplugin.Serve(sdkplugin.Config{Source: &spawnerSource{echoSource: &echoSource{}, child: spawnSleeper()}})
	case "bigbanner":
		// A 200 KB line on stdout before the handshake.
		fmt.Println(strings.Repeat("x", bigBanner))
		sdkplugin.Serve(sdkplugin.Config{Source: &echoSource{}})
	default:
		fmt.Fprintf(os.Stderr, "unknown test plugin mode %q\n", mode)
		os.Exit(2)
	}
	os.Exit(0)
}

// bareGRPC is a gRPC plugin that registers no service.
type bareGRPC struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (bareGRPC) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error { return nil }

func (bareGRPC) GRPCClient(context.Context, *goplugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, nil
}

// echoSource emits generated records; its query selects a misbehaviour.
type echoSource struct {
	config map[string]any
}

func (s *echoSource) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{
		Name:    "echo",
		Version: "1.2.3",
		Kinds:   []string{sdk.KindDocument},
		Filters: []string{"n"},
	}, nil
}

func (s *echoSource) Configure(_ context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
	if err := json.Unmarshal(config, &s.config); err != nil {
		return nil, sdk.Errorf(sdk.KindBadConfig, "config: %v", err)
	}
	var diags sdk.Diagnostics
	if v, ok := s.config["base_url"].(string); ok && !strings.HasPrefix(v, "http") {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: "not a URL", Detail: fmt.Sprintf("got %q", v), Path: "base_url"})
	}
	if _, ok := s.config["legacy"]; ok {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Summary: "legacy is ignored", Path: "legacy"})
	}
	return diags, nil
}

// Fetch emits filters["n"] records (default req.Limit, else 1).
func (s *echoSource) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	n := req.Limit
	if v := req.Filters["n"]; len(v) == 1 {
		n, _ = strconv.Atoi(v[0])
	}
	if n == 0 {
		n = 1
	}
	for i := range n {
		if i == n/2 || n == 1 {
			if err := s.misbehave(req.Query); err != nil {
				return err
			}
		}
		fields := map[string]any{"index": int64(i), "pid": int64(os.Getpid())}
		if req.Kind != "" {
			fields["requested_kind"] = req.Kind
		}
		if req.Query == queryProcs {
			fields["gomaxprocs"] = int64(runtime.GOMAXPROCS(0))
		}
		err := emit(sdk.Record{
			ID:     "r" + strconv.Itoa(i),
			Source: "echo",
			Kind:   sdk.KindDocument,
			Title:  req.Query,
			Body:   "record body",
			Time:   time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
			Fields: fields,
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *echoSource) misbehave(query string) error {
	switch query {
	case queryPanic:
		panic("echo: index out of range in record 7")
	case queryCrash:
		go func() { panic("echo: corrupted state, giving up") }()
		time.Sleep(time.Minute)
	case queryHang:
		hclog.New(&hclog.LoggerOptions{Name: "echo", Output: os.Stderr, JSONFormat: true}).Warn("hanging")
		select {}
	case queryStdout:
		fmt.Println("debug: fetching")
	case queryLog:
		hclog.New(&hclog.LoggerOptions{Name: "echo", Output: os.Stderr, JSONFormat: true}).Info("fetching page", "page", 2)
	case querySecret:
		return sdk.Errorf(sdk.KindUnauthorized, "token %v rejected", s.config["token"])
	case queryLast:
		fmt.Fprintln(os.Stderr, lastWords)
		os.Exit(9)
	case queryBigLog:
		hclog.New(&hclog.LoggerOptions{Name: "echo", Output: os.Stderr, JSONFormat: true}).Error("upstream said: " + strings.Repeat("y", 70<<10))
		return sdk.Errorf(sdk.KindUnavailable, "upstream failed")
	}
	return nil
}

// echoAgent answers with what it was asked, shaped by the schema it got.
type echoAgent struct {
	config json.RawMessage
}

func (a *echoAgent) Describe(context.Context) (sdk.AgentInfo, error) {
	return sdk.AgentInfo{Name: "echo", Version: "1.2.3", Roles: []string{sdk.RoleWriter, sdk.RoleCritic}, Models: []string{"echo-1"}}, nil
}

func (a *echoAgent) Configure(_ context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
	a.config = config
	return nil, nil
}

func (a *echoAgent) Invoke(_ context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	var schema struct {
		Required []string `json:"required"`
	}
	if len(req.Schema) > 0 {
		if err := json.Unmarshal(req.Schema, &schema); err != nil {
			return sdk.InvokeResponse{}, sdk.Errorf(sdk.KindBadRequest, "schema: %v", err)
		}
	}
	out := map[string]any{}
	for _, k := range schema.Required {
		out[k] = fmt.Sprintf("%s:%s", req.Role, k)
	}
	out["context_ids"] = ids(req.Context)
	out["input"] = req.Input
	out["config"] = a.config
	b, err := json.Marshal(out)
	if err != nil {
		return sdk.InvokeResponse{}, err
	}
	return sdk.InvokeResponse{Output: b, Usage: sdk.Usage{PromptTokens: len(req.Instructions), CompletionTokens: len(b), Model: "echo-1"}}, nil
}

func ids(rs []sdk.Record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}
