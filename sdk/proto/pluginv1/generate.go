// Package pluginv1 is the generated code of the nous plugin protocol,
// version 1 (plugin.proto). Plugin authors never import it: they use sdk.
package pluginv1

// Regenerating needs protoc, protoc-gen-go and protoc-gen-go-grpc on PATH.
//go:generate protoc --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative plugin.proto
