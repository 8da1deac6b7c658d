package sdk

import (
	"regexp"
	"strconv"

	"github.com/hashicorp/go-plugin"
)

// Version is the version of this SDK. A plugin reports the SDK it was built
// against in SourceInfo.SDKVersion and AgentInfo.SDKVersion.
const Version = "1.0.0"

// ProtocolVersion is the plugin protocol this SDK speaks (nous.plugin.v1).
// The host and the plugin must speak the same version; go-plugin
// negotiates it before the first call.
const ProtocolVersion = 1

// Handshake is the go-plugin handshake every nous plugin and host share.
// The magic cookie only tells a binary it was started by nous, not by a
// person at a shell; it is not a security measure.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "NOUS_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "b4d1f7e0-nous-plugin-2c9a",
}

// go-plugin words a version mismatch as "incompatible API version with
// plugin. Plugin version: 2, Client versions: [1]".
var mismatchPattern = regexp.MustCompile(`incompatible API version with plugin\. Plugin version: (\d+)`)

// MismatchedProtocol reports whether err is go-plugin's protocol version
// mismatch and, if so, the protocol version the plugin speaks, so the host
// can say "plugin speaks protocol X, this nous speaks Y".
func MismatchedProtocol(err error) (pluginVersion int, ok bool) {
	if err == nil {
		return 0, false
	}
	m := mismatchPattern.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, false
	}
	v, convErr := strconv.Atoi(m[1])
	return v, convErr == nil
}
