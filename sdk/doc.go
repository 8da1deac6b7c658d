// Package sdk is what a nous plugin author imports: the Source and Agent
// interfaces, the record type, error kinds, and Serve.
//
// A plugin's main.go is a few lines:
//
//	func main() { sdk.Serve(sdk.ServeConfig{Source: mysource.New()}) }
//
// Serve speaks the nous plugin protocol (sdk/proto/pluginv1, gRPC through
// hashicorp/go-plugin); errors keep their ErrorKind across it and the
// caller's deadline reaches the plugin's context. Package sdk/sdktest runs
// an implementation over the same protocol inside a test.
//
// The host side uses Handshake and ClientPlugins to start plugins with
// go-plugin and dispense them as Source and Agent values.
package sdk
