package toproto

import (
	"github.com/nous-dev/nous/sdk"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/wire"
)

// GroundRequest converts r.
func GroundRequest(r sdk.GroundRequest) *pb.GroundRequest {
	terms := make([]*pb.Term, len(r.Terms))
	for i, t := range r.Terms {
		terms[i] = &pb.Term{Kind: wire.ValidUTF8(t.Kind), Value: wire.ValidUTF8(t.Value)}
	}
	return &pb.GroundRequest{Terms: terms, Since: wire.TimeToProto(r.Since), Until: wire.TimeToProto(r.Until)}
}

// GroundResponse converts r.
func GroundResponse(r sdk.GroundResponse) *pb.GroundResponse {
	terms := make([]*pb.GroundedTerm, len(r.Terms))
	for i, t := range r.Terms {
		terms[i] = &pb.GroundedTerm{
			Kind:      wire.ValidUTF8(t.Kind),
			Value:     wire.ValidUTF8(t.Value),
			Known:     t.Known,
			Canonical: wire.StringsToProto(t.Canonical).GetValues(),
			Id:        wire.ValidUTF8(t.ID),
			Time:      wire.TimeToProto(t.Time),
			Note:      wire.ValidUTF8(t.Note),
			Partial:   t.Partial,
		}
	}
	return &pb.GroundResponse{
		Terms:    terms,
		Filters:  wire.StringsToProto(r.Filters).GetValues(),
		Coverage: coverage(r.Coverage),
	}
}

// coverage leaves an unknown (zero) coverage absent.
func coverage(c sdk.Coverage) *pb.Coverage {
	if c.Earliest.IsZero() && c.Latest.IsZero() && c.Truncated == "" && c.Name == "" && c.Remote == nil {
		return nil
	}
	return &pb.Coverage{
		Earliest:  wire.TimeToProto(c.Earliest),
		Latest:    wire.TimeToProto(c.Latest),
		Truncated: wire.ValidUTF8(c.Truncated),
		Name:      wire.ValidUTF8(c.Name),
		Remote:    remote(c.Remote),
	}
}

// remote leaves an unknown (nil) remote absent.
func remote(r *sdk.Remote) *pb.Remote {
	if r == nil {
		return nil
	}
	return &pb.Remote{Host: wire.ValidUTF8(r.Host), Path: wire.ValidUTF8(r.Path), Kind: wire.ValidUTF8(r.Kind)}
}
