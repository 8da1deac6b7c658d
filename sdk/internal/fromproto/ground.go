package fromproto

import (
	"fmt"

	"github.com/nous-dev/nous/sdk"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/wire"
)

// GroundRequest converts p; a nil term becomes an empty one, which the
// bounds check then rejects, and so does a bad period time.
func GroundRequest(p *pb.GroundRequest) (sdk.GroundRequest, error) {
	var r sdk.GroundRequest
	var err error
	if r.Since, err = wire.TimeFromProto(p.GetSince()); err != nil {
		return sdk.GroundRequest{}, fmt.Errorf("since: %w", err)
	}
	if r.Until, err = wire.TimeFromProto(p.GetUntil()); err != nil {
		return sdk.GroundRequest{}, fmt.Errorf("until: %w", err)
	}
	if ps := p.GetTerms(); len(ps) > 0 {
		r.Terms = make([]sdk.Term, len(ps))
		for i, t := range ps {
			r.Terms[i] = sdk.Term{Kind: t.GetKind(), Value: t.GetValue()}
		}
	}
	return r, nil
}

// GroundResponse converts p; it fails on a bad time.
func GroundResponse(p *pb.GroundResponse) (sdk.GroundResponse, error) {
	var terms []sdk.GroundedTerm
	if ps := p.GetTerms(); len(ps) > 0 {
		terms = make([]sdk.GroundedTerm, len(ps))
		for i, t := range ps {
			tm, err := wire.TimeFromProto(t.GetTime())
			if err != nil {
				return sdk.GroundResponse{}, fmt.Errorf("terms[%d] time: %w", i, err)
			}
			terms[i] = sdk.GroundedTerm{
				Kind:      t.GetKind(),
				Value:     t.GetValue(),
				Known:     t.GetKnown(),
				Canonical: NilIfEmpty(t.GetCanonical()),
				ID:        t.GetId(),
				Time:      tm,
				Note:      t.GetNote(),
				Partial:   t.GetPartial(),
			}
		}
	}
	cov, err := coverage(p.GetCoverage())
	if err != nil {
		return sdk.GroundResponse{}, fmt.Errorf("coverage: %w", err)
	}
	return sdk.GroundResponse{Terms: terms, Filters: NilIfEmpty(p.GetFilters()), Coverage: cov}, nil
}

func coverage(p *pb.Coverage) (sdk.Coverage, error) {
	if p == nil {
		return sdk.Coverage{}, nil
	}
	earliest, err := wire.TimeFromProto(p.GetEarliest())
	if err != nil {
		return sdk.Coverage{}, fmt.Errorf("earliest: %w", err)
	}
	latest, err := wire.TimeFromProto(p.GetLatest())
	if err != nil {
		return sdk.Coverage{}, fmt.Errorf("latest: %w", err)
	}
	return sdk.Coverage{Earliest: earliest, Latest: latest, Truncated: p.GetTruncated(), Name: p.GetName(), Remote: remote(p.GetRemote())}, nil
}

// remote keeps an absent remote nil.
func remote(p *pb.Remote) *sdk.Remote {
	if p == nil {
		return nil
	}
	return &sdk.Remote{Host: p.GetHost(), Path: p.GetPath(), Kind: p.GetKind()}
}

// NilIfEmpty keeps "none" as nil, as the sdk types document.
func NilIfEmpty(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return ss
}
