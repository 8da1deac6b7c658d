// Package proto is the generated code of the nous plugin protocol,
// version 1 (plugin.proto). Only the sdk's transport imports it; plugin
// authors use package sdk.
package proto

// Regenerating needs protoc, protoc-gen-go, protoc-gen-go-grpc and
// protoc-gen-go-vtproto on PATH. The vtproto code (reflection-free marshal,
// unmarshal and size) is what the sdk's gRPC codec uses on the hot path; the
// bytes on the wire are plain protobuf either way.
//go:generate protoc --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative --go-vtproto_out=. --go-vtproto_opt=paths=source_relative,features=marshal+unmarshal+unmarshal_unsafe+size plugin.proto
