package wire

import (
	"testing"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The field numbers written by hand are plugin.proto's.
func TestRecordFieldNumbersMatchTheProto(t *testing.T) {
	record := (&pb.Record{}).ProtoReflect().Descriptor().Fields()
	for name, num := range map[protoreflect.Name]protowire.Number{
		"id": RecordID, "source": RecordSource, "kind": RecordKind, "title": RecordTitle, "body": RecordBody,
		"url": RecordURL, "author": RecordAuthor, "time": RecordTime, "tier": RecordTier, "fields": RecordFields,
	} {
		require.NotNil(t, record.ByName(name), name)
		assert.Equal(t, num, record.ByName(name).Number(), name)
	}
	assert.Equal(t, FetchRecords, (&pb.FetchResponse{}).ProtoReflect().Descriptor().Fields().ByName("records").Number())
	assert.Equal(t, record.Len(), 10, "a new Record field needs encoding in toproto.AppendRecord and decoding in fromproto.ChunkReader")
}
