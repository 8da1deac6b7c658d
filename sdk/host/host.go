// Package host is what the nous host needs to start plugins with
// hashicorp/go-plugin: the handshake, the plugin sets whose dispensed
// values are sdk.Source and sdk.Agent calling the plugin over gRPC, and the
// errors a start or a call can end in. Plugin authors do not import it.
package host

import (
	"regexp"
	"strconv"
	"sync"

	"github.com/hashicorp/go-plugin"
	"github.com/nous-dev/nous/sdk/internal/host2plugin"
	"google.golang.org/grpc"
)

// Handshake is the go-plugin handshake every nous plugin and host share.
var Handshake = host2plugin.Handshake

// The environment variables in which a host hands each plugin its TLS
// server certificate and key (PEM); the plugin's Serve takes them out of its
// environment at start-up.
const (
	EnvTLSCert = host2plugin.EnvTLSCert
	EnvTLSKey  = host2plugin.EnvTLSKey
)

// Names to dispense from a connected plugin (go-plugin's
// ClientProtocol.Dispense).
const (
	PluginSource = host2plugin.PluginSource // yields an sdk.Source that is also an sdk.Grounder
	PluginAgent  = host2plugin.PluginAgent  // yields an sdk.Agent
)

// VersionedPlugins returns the plugin sets, by protocol version, a host
// gives go-plugin (ClientConfig.VersionedPlugins). What they dispense is
// safe for concurrent use.
func VersionedPlugins() map[int]plugin.PluginSet { return host2plugin.ClientPlugins() }

// DialOptions returns the gRPC options a host connects to its plugins with
// (ClientConfig.GRPCDialOptions): the flow-control settings plugins serve
// with, so that neither end spends frames on estimating bandwidth.
func DialOptions() []grpc.DialOption { return host2plugin.DialOptions() }

// ErrNotServed is the cause of an error from a call to a service the plugin
// does not serve (an Agent call to a source-only plugin). Match it with
// errors.Is.
var ErrNotServed = host2plugin.ErrNotServed

// go-plugin words a version mismatch as "incompatible API version with
// plugin. Plugin version: 2, Client versions: [1]".
var mismatchPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`incompatible API version with plugin\. Plugin version: (\d+)`)
})

// MismatchedProtocol reports whether err is go-plugin's protocol version
// mismatch and, if so, the protocol version the plugin speaks, so the host
// can say "plugin speaks protocol X, this nous speaks Y".
func MismatchedProtocol(err error) (pluginVersion int, ok bool) {
	if err == nil {
		return 0, false
	}
	m := mismatchPattern().FindStringSubmatch(err.Error())
	if m == nil {
		return 0, false
	}
	v, convErr := strconv.Atoi(m[1])
	return v, convErr == nil
}
