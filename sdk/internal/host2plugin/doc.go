// Package host2plugin is the nous plugin protocol's transport, named by
// the direction of its calls: the host calls the plugin. In the plugin
// process it serves an author's sdk.Source or sdk.Agent over gRPC
// (go-plugin's server, chunked Fetch streams, panics turned into errors);
// in the host it is the client that implements sdk.Source, sdk.Grounder and
// sdk.Agent over gRPC. The public faces are sdk/plugin (Serve, for
// authors) and sdk/host (the handshake and plugin sets, for the nous host).
package host2plugin
