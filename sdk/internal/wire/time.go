package wire

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"
)

// TimeToProto converts t; the zero time becomes nil (absent).
func TimeToProto(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}

// TimeFromProto converts ts to UTC; nil becomes the zero time. A timestamp
// out of range is an error rather than a silently wrong time.
func TimeFromProto(ts *timestamppb.Timestamp) (time.Time, error) {
	if ts == nil {
		return time.Time{}, nil
	}
	if err := ts.CheckValid(); err != nil {
		return time.Time{}, fmt.Errorf("invalid timestamp: %w", err)
	}
	return ts.AsTime(), nil
}
