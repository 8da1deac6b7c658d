package wire

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of nous.plugin.v1.FetchResponse and Record, for the fetch
// chunks toproto.AppendRecord writes and fromproto.ChunkReader reads
// without generated messages in between.
const (
	FetchRecords protowire.Number = 1

	RecordID     protowire.Number = 1
	RecordSource protowire.Number = 2
	RecordKind   protowire.Number = 3
	RecordTitle  protowire.Number = 4
	RecordBody   protowire.Number = 5
	RecordURL    protowire.Number = 6
	RecordAuthor protowire.Number = 7
	RecordTime   protowire.Number = 8
	RecordTier   protowire.Number = 9
	RecordFields protowire.Number = 10
)

// Field numbers of nous.plugin.v1.InvokeRequest, for the requests
// toproto.AppendInvokeRequest writes.
const (
	InvokeRole         protowire.Number = 1
	InvokeInstructions protowire.Number = 2
	InvokeInput        protowire.Number = 3
	InvokeContext      protowire.Number = 4
	InvokeSchema       protowire.Number = 5
)
