package host2plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/host2plugin"
	sdkplugin "github.com/nous-dev/nous/sdk/plugin"
)

// The test binary doubles as a plugin and as a host: with envRole set it
// serves (or hosts) instead of running tests, so the subprocess tests run
// real go-plugin processes without building anything.
const envRole = "NOUS_SDK_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(envRole) {
	case "":
		os.Exit(m.Run())
	case "source":
		sdkplugin.Serve(sdkplugin.Config{Source: &fakeSource{
			info:  sdk.SourceInfo{Name: "subprocess", Version: "1.0.0"},
			fetch: emitN(manyRecords(10_000)),
		}})
	case "agent":
		sdkplugin.Serve(sdkplugin.Config{Agent: &fakeAgent{invoke: writerAgent}})
	case "serve-nothing":
		sdkplugin.Serve(sdkplugin.Config{})
	case "host":
		// go-plugin appends the host's environment after the plugin's own,
		// so the host must not carry a role the plugin would inherit.
		_ = os.Unsetenv(envRole)
		hostAndHang()
	default:
		fmt.Fprintf(os.Stderr, "unknown %s %q\n", envRole, os.Getenv(envRole))
		os.Exit(2)
	}
}

// hostAndHang starts a source plugin (this binary again), prints its pid
// and then waits to be killed, like a host that dies without cleaning up.
func hostAndHang() {
	client := newClient(host2plugin.ClientPlugins(), "source")
	src, err := dispenseSource(client)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if _, err := src.Describe(context.Background()); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(client.ReattachConfig().Pid)
	time.Sleep(time.Hour)
}

// writerAgent answers like a writer agent, with fixed output and usage.
func writerAgent(context.Context, sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	return sdk.InvokeResponse{
		Output: json.RawMessage(`{"final_report":"Two payment fixes landed.","sources_used":["rec-00000"],"confidence_level":"High"}`),
		Usage:  sdk.Usage{PromptTokens: 800, CompletionTokens: 60},
	}, nil
}

// emitN is a Fetch that emits the first n of records, n from the filter
// "n" (default 10).
func emitN(records []sdk.Record) func(context.Context, sdk.FetchRequest, func(sdk.Record) error) error {
	return func(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
		n := 10
		if v := req.Filters["n"]; len(v) == 1 {
			n, _ = strconv.Atoi(v[0])
		}
		return emitAll(records[:min(n, len(records))])(ctx, req, emit)
	}
}

// newClient returns a go-plugin client that starts this test binary as a
// plugin in role, the way the nous host starts plugins.
func newClient(plugins map[int]plugin.PluginSet, role string) *plugin.Client {
	cmd := execSelf(role)
	return plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  host2plugin.Handshake,
		VersionedPlugins: plugins,
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         true,
		Logger:           hclog.New(&hclog.LoggerOptions{Level: hclog.Warn, Output: os.Stderr}),
		StartTimeout:     30 * time.Second,
	})
}

func dispenseSource(client *plugin.Client) (sdk.Source, error) {
	conn, err := client.Client()
	if err != nil {
		return nil, err
	}
	raw, err := conn.Dispense(host2plugin.PluginSource)
	if err != nil {
		return nil, err
	}
	return raw.(sdk.Source), nil
}

// execSelf returns a command that runs this test binary in role.
func execSelf(role string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envRole+"="+role)
	return cmd
}

// running reports whether pid is a live process; a zombie (exited, not yet
// reaped) counts as gone. It reads /proc, so callers skip where it is absent.
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name: "123 (name) S ...".
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
