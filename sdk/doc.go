// Package sdk is what a nous plugin author imports: the Source and Agent
// interfaces, the record type, error kinds, and Serve.
//
// A plugin's main.go is a few lines:
//
//	func main() { sdk.Serve(sdk.ServeConfig{Source: mysource.New()}) }
package sdk
