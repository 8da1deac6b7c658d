// Package wire converts the building blocks of nous plugin messages between
// Go values and their protocol form (sdk/internal/proto): typed record
// fields, timestamps, filters, strings and error statuses. It knows nothing
// of the sdk types, so the sdk can use it without an import cycle; the
// record-level mapping in sdk is plain field assignment over these helpers.
package wire
