// Package sdk is what a nous plugin author implements and uses: the Source,
// Grounder and Agent interfaces, records, requests and responses, error
// kinds, diagnostics and the agent roles' inputs and outputs. It imports no
// gRPC: serving is package sdk/plugin's job, and a plugin's main.go is a
// few lines:
//
//	package main
//
//	import "github.com/nous-dev/nous/sdk/plugin"
//
//	func main() { plugin.Serve(plugin.Config{Source: mysource.New()}) }
//
// Serve speaks the nous plugin protocol (gRPC through hashicorp/go-plugin);
// errors keep their ErrorKind across it and the caller's deadline reaches
// the plugin's context. Package sdk/sdktest runs an implementation over
// the same protocol inside a test.
//
// Return failures as an *Error with a kind (Errorf(KindNotFound, …)) so
// the engine can tell a missing project from an outage; the Err sentinels
// match kinds with errors.Is. Configure reports a bad config value as a
// Diagnostic whose Path names its key. Fetch emits records as they arrive;
// emit fails once the host has Limit records or has ended the call,
// and Fetch then returns that error. A Source that also implements Grounder
// tells the engine which of a question's terms (paths, authors, refs,
// projects, labels, states) it knows; one without it knows none. A plugin
// that holds a token hides it from its errors, logs and records with
// package sdk/redact.
package sdk
