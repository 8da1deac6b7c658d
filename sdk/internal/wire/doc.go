// Package wire converts the building blocks of nous plugin messages between
// Go values and their protocol form (sdk/internal/proto): typed record
// fields, timestamps, filters, strings and error statuses. It knows nothing
// of the sdk types; the record-level mapping (sdk/internal/toproto and
// sdk/internal/fromproto) is plain field assignment over these helpers.
package wire
