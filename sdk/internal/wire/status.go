package wire

import (
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// kindCodes maps an error kind (pb.ErrorKind, the same numbers as
// sdk.ErrorKind) to the gRPC code that means the same, so tools that only
// read codes still see something sensible.
var kindCodes = map[pb.ErrorKind]codes.Code{
	pb.ErrorKind_ERROR_KIND_UNKNOWN:      codes.Unknown,
	pb.ErrorKind_ERROR_KIND_BAD_CONFIG:   codes.FailedPrecondition,
	pb.ErrorKind_ERROR_KIND_NOT_FOUND:    codes.NotFound,
	pb.ErrorKind_ERROR_KIND_RATE_LIMITED: codes.ResourceExhausted,
	pb.ErrorKind_ERROR_KIND_UNAVAILABLE:  codes.Unavailable,
	pb.ErrorKind_ERROR_KIND_DEADLINE:     codes.DeadlineExceeded,
	pb.ErrorKind_ERROR_KIND_BAD_REQUEST:  codes.InvalidArgument,
	pb.ErrorKind_ERROR_KIND_UNAUTHORIZED: codes.Unauthenticated,
}

// codeKinds is the reverse mapping, for failures that carry no detail
// (transport errors, a plugin built with another library).
var codeKinds = map[codes.Code]pb.ErrorKind{
	codes.FailedPrecondition: pb.ErrorKind_ERROR_KIND_BAD_CONFIG,
	codes.NotFound:           pb.ErrorKind_ERROR_KIND_NOT_FOUND,
	codes.ResourceExhausted:  pb.ErrorKind_ERROR_KIND_RATE_LIMITED,
	codes.Unavailable:        pb.ErrorKind_ERROR_KIND_UNAVAILABLE,
	codes.DeadlineExceeded:   pb.ErrorKind_ERROR_KIND_DEADLINE,
	codes.Canceled:           pb.ErrorKind_ERROR_KIND_UNAVAILABLE, // the connection closed under the call
	codes.InvalidArgument:    pb.ErrorKind_ERROR_KIND_BAD_REQUEST,
	codes.Unauthenticated:    pb.ErrorKind_ERROR_KIND_UNAUTHORIZED,
	codes.PermissionDenied:   pb.ErrorKind_ERROR_KIND_UNAUTHORIZED,
}

// StatusError builds the gRPC status error a plugin returns for a failed
// call: the code matching kind, and a pb.Error detail carrying kind and
// message exactly.
func StatusError(kind int, message string) error {
	k := pb.ErrorKind(kind)
	code, ok := kindCodes[k]
	if !ok {
		k, code = pb.ErrorKind_ERROR_KIND_UNKNOWN, codes.Unknown
	}
	st := status.New(code, ValidUTF8(message))
	if withDetail, err := st.WithDetails(&pb.Error{Kind: k, Message: ValidUTF8(message)}); err == nil {
		st = withDetail
	}
	return st.Err()
}

// Failure is what a failed call's error says once it crossed the wire.
type Failure struct {
	Kind      int        // sdk.ErrorKind number
	Message   string     // the plugin's message when Detailed, else the status message
	Code      codes.Code // the gRPC code
	Detailed  bool       // whether the plugin sent a pb.Error detail
	HasStatus bool       // whether err was a gRPC status at all
}

// FailureOf reads a failed call's error. An error that is not a gRPC status
// is reported as unknown with its text.
func FailureOf(err error) Failure {
	st, ok := status.FromError(err)
	if !ok {
		return Failure{Kind: int(pb.ErrorKind_ERROR_KIND_UNKNOWN), Message: err.Error(), Code: codes.Unknown}
	}
	f := Failure{Kind: int(codeKinds[st.Code()]), Message: st.Message(), Code: st.Code(), HasStatus: true}
	for _, d := range st.Details() {
		if e, ok := d.(*pb.Error); ok {
			f.Kind, f.Message, f.Detailed = int(e.GetKind()), e.GetMessage(), true
			if _, known := kindCodes[e.GetKind()]; !known {
				f.Kind = int(pb.ErrorKind_ERROR_KIND_UNKNOWN)
			}
			break
		}
	}
	return f
}
