package sdk

import (
	"fmt"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/wire"
)

// The mapping between the Ground types and their protocol form.

func groundRequestToProto(r GroundRequest) *pb.GroundRequest {
	terms := make([]*pb.Term, len(r.Terms))
	for i, t := range r.Terms {
		terms[i] = &pb.Term{Kind: wire.ValidUTF8(t.Kind), Value: wire.ValidUTF8(t.Value)}
	}
	return &pb.GroundRequest{Terms: terms}
}

func groundRequestFromProto(p *pb.GroundRequest) GroundRequest {
	ps := p.GetTerms()
	if len(ps) == 0 {
		return GroundRequest{}
	}
	terms := make([]Term, len(ps))
	for i, t := range ps {
		terms[i] = Term{Kind: t.GetKind(), Value: t.GetValue()}
	}
	return GroundRequest{Terms: terms}
}

func groundResponseToProto(r GroundResponse) *pb.GroundResponse {
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
		}
	}
	return &pb.GroundResponse{
		Terms:    terms,
		Filters:  wire.StringsToProto(r.Filters).GetValues(),
		Coverage: coverageToProto(r.Coverage),
	}
}

func groundResponseFromProto(p *pb.GroundResponse) (GroundResponse, error) {
	var terms []GroundedTerm
	if ps := p.GetTerms(); len(ps) > 0 {
		terms = make([]GroundedTerm, len(ps))
		for i, t := range ps {
			tm, err := wire.TimeFromProto(t.GetTime())
			if err != nil {
				return GroundResponse{}, fmt.Errorf("terms[%d] time: %w", i, err)
			}
			terms[i] = GroundedTerm{
				Kind:      t.GetKind(),
				Value:     t.GetValue(),
				Known:     t.GetKnown(),
				Canonical: nilIfEmpty(t.GetCanonical()),
				ID:        t.GetId(),
				Time:      tm,
				Note:      t.GetNote(),
			}
		}
	}
	cov, err := coverageFromProto(p.GetCoverage())
	if err != nil {
		return GroundResponse{}, fmt.Errorf("coverage: %w", err)
	}
	return GroundResponse{Terms: terms, Filters: nilIfEmpty(p.GetFilters()), Coverage: cov}, nil
}

// coverageToProto leaves an unknown (zero) coverage absent.
func coverageToProto(c Coverage) *pb.Coverage {
	if c.Earliest.IsZero() && c.Latest.IsZero() && c.Truncated == "" && c.Name == "" {
		return nil
	}
	return &pb.Coverage{
		Earliest:  wire.TimeToProto(c.Earliest),
		Latest:    wire.TimeToProto(c.Latest),
		Truncated: wire.ValidUTF8(c.Truncated),
		Name:      wire.ValidUTF8(c.Name),
	}
}

func coverageFromProto(p *pb.Coverage) (Coverage, error) {
	if p == nil {
		return Coverage{}, nil
	}
	earliest, err := wire.TimeFromProto(p.GetEarliest())
	if err != nil {
		return Coverage{}, fmt.Errorf("earliest: %w", err)
	}
	latest, err := wire.TimeFromProto(p.GetLatest())
	if err != nil {
		return Coverage{}, fmt.Errorf("latest: %w", err)
	}
	return Coverage{Earliest: earliest, Latest: latest, Truncated: p.GetTruncated(), Name: p.GetName()}, nil
}

// nilIfEmpty keeps "none" as nil, as the sdk types document.
func nilIfEmpty(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return ss
}
