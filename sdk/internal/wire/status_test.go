package wire

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestStatusCarriesKindAndMessage(t *testing.T) {
	tests := []struct {
		kind int
		code codes.Code
	}{
		{0, codes.Unknown},
		{1, codes.FailedPrecondition},
		{2, codes.NotFound},
		{3, codes.ResourceExhausted},
		{4, codes.Unavailable},
		{5, codes.DeadlineExceeded},
		{6, codes.InvalidArgument},
		{7, codes.Unauthenticated},
	}
	for _, tc := range tests {
		t.Run(tc.code.String(), func(t *testing.T) {
			f := FailureOf(StatusError(tc.kind, "boom: x"))
			assert.Equal(t, Failure{Kind: tc.kind, Message: "boom: x", Code: tc.code, Detailed: true, HasStatus: true}, f)
		})
	}
}

func TestUnknownKindNumbersBecomeUnknown(t *testing.T) {
	f := FailureOf(StatusError(99, "from the future"))
	assert.Equal(t, 0, f.Kind)
	assert.Equal(t, codes.Unknown, f.Code)
	assert.Equal(t, "from the future", f.Message)
}

func TestFailuresWithoutDetailUseTheCode(t *testing.T) {
	tests := []struct {
		code codes.Code
		kind int
	}{
		{codes.Unavailable, 4},
		{codes.DeadlineExceeded, 5},
		{codes.Canceled, 4},
		{codes.PermissionDenied, 7},
		{codes.Internal, 0},
	}
	for _, tc := range tests {
		t.Run(tc.code.String(), func(t *testing.T) {
			f := FailureOf(status.Error(tc.code, "transport said so"))
			assert.Equal(t, Failure{Kind: tc.kind, Message: "transport said so", Code: tc.code, HasStatus: true}, f)
		})
	}
}

func TestFailureOfAPlainError(t *testing.T) {
	f := FailureOf(errors.New("plain"))
	assert.Equal(t, Failure{Kind: 0, Message: "plain", Code: codes.Unknown}, f)
}
