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
