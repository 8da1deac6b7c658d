package host2plugin_test

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
	"github.com/nous-dev/nous/sdk/internal/host2plugin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run real plugin subprocesses (this test binary, see
// TestMain) through go-plugin with AutoMTLS, as the nous host does.

func TestServeInASubprocess(t *testing.T) {
	client := newClient(host2plugin.ClientPlugins(), "source")
	defer client.Kill()
	src, err := dispenseSource(client)
	require.NoError(t, err)

	info, err := src.Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "subprocess", info.Name)
	assert.Equal(t, sdk.Version, info.SDKVersion)
	assert.Equal(t, sdk.ProtocolVersion, client.NegotiatedVersion())

	var ids []string
	err = src.Fetch(context.Background(), sdk.FetchRequest{}, func(r sdk.Record) error {
		ids = append(ids, r.ID)
		return nil
	})
	require.NoError(t, err)
	assert.Len(t, ids, 10)
}

func TestAgentCallToASourceOnlyPluginIsNotServed(t *testing.T) {
	client := newClient(host2plugin.ClientPlugins(), "source")
	defer client.Kill()
	conn, err := client.Client()
	require.NoError(t, err)
	raw, err := conn.Dispense(host2plugin.PluginAgent)
	require.NoError(t, err)

	_, err = raw.(sdk.Agent).Describe(context.Background())
	require.ErrorIs(t, err, host2plugin.ErrNotServed)
	assert.EqualError(t, err, "agent describe: the plugin does not serve this service")
}

func TestProtocolMismatchIsDetectable(t *testing.T) {
	// A host from the future speaks only protocol ProtocolVersion+1.
	future := map[int]plugin.PluginSet{sdk.ProtocolVersion + 1: host2plugin.ClientPlugins()[sdk.ProtocolVersion]}
	client := newClient(future, "source")
	defer client.Kill()

	_, err := client.Client()
	require.Error(t, err)
	v, ok := host.MismatchedProtocol(err)
	require.True(t, ok, "not recognised as a mismatch: %v", err)
	assert.Equal(t, sdk.ProtocolVersion, v, "the plugin's version is read from the error")
}

func TestServeWithNothingToServeExplains(t *testing.T) {
	cmd := execSelf("serve-nothing")
	cmd.Env = append(cmd.Env, host2plugin.Handshake.MagicCookieKey+"="+host2plugin.Handshake.MagicCookieValue)
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "names neither a Source nor an Agent")
}

func TestServeStartedByHandExplains(t *testing.T) {
	out, err := execSelf("source").CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "This binary is a plugin")
}

func TestPluginExitsWhenItsHostDies(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	host := execSelf("host")
	stdout, err := host.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, host.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	pluginPid, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err, "host said %q", line)
	require.True(t, running(pluginPid))

	require.NoError(t, host.Process.Kill()) // no cleanup, no Ctrl-C: gone
	_ = host.Wait()

	deadline := time.Now().Add(10 * time.Second)
	for running(pluginPid) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if running(pluginPid) {
		p, _ := os.FindProcess(pluginPid)
		_ = p.Kill()
		t.Fatalf("plugin %d outlived its host", pluginPid)
	}
}
