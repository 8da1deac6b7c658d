// Package server is nous serve: the engine as a long-running HTTP service.
// Rules are loaded once into a Snapshot whose plugins stay warm and are
// shared by concurrent runs; every run goes through engine/ask, as `nous
// ask` does, and is kept in a bounded store.
package server
