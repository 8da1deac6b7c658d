package sdk

// Version is the version of this SDK. A plugin reports the SDK it was built
// against in SourceInfo.SDKVersion and AgentInfo.SDKVersion.
const Version = "1.0.0"

// ProtocolVersion is the plugin protocol this SDK speaks (nous.plugin.v1).
// The host and the plugin must speak the same version; go-plugin
// negotiates it before the first call.
const ProtocolVersion = 1
