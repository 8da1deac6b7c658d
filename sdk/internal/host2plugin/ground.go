package host2plugin

import (
	"context"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/fromproto"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/grpc/codes"
)

// Notes on terms a source could not look at, for the report.
const (
	noteCannotGround = "the source does not ground terms"
	notePredatesSDK  = "the source's plugin was built before grounding existed (an older nous SDK)"
)

// Ground answers a Ground call: the plugin's own answer when its Source is
// a Grounder, otherwise every term unknown. Filters default to Describe's.
func (s *sourceServer) Ground(ctx context.Context, req *pb.GroundRequest) (_ *pb.GroundResponse, err error) {
	defer recoverCall(s.logger, "Ground", &err)
	gr, err := fromproto.GroundRequest(req)
	if err != nil {
		return nil, statusOf(sdk.Errorf(sdk.KindBadRequest, "ground request: %w", err))
	}
	if err := checkGroundRequest(gr); err != nil {
		return nil, statusOf(err)
	}
	var resp sdk.GroundResponse
	if g, ok := s.impl.(sdk.Grounder); ok {
		if resp, err = g.Ground(ctx, gr); err != nil {
			return nil, statusOf(err)
		}
	} else {
		resp = unknownTerms(gr, noteCannotGround)
	}
	if len(resp.Filters) == 0 {
		info, err := s.impl.Describe(ctx)
		if err != nil {
			return nil, statusOf(err)
		}
		resp.Filters = info.Filters
	}
	return toproto.GroundResponse(resp), nil
}

// Ground asks the plugin which of req's terms it knows and checks that the
// answer matches the question. A plugin built before Ground existed
// answers every term unknown, with its Describe filters: not an error.
func (c *sourceClient) Ground(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	if err := checkGroundRequest(req); err != nil {
		return sdk.GroundResponse{}, err
	}
	presp, err := c.client.Ground(ctx, toproto.GroundRequest(req), c.opts...)
	if err != nil {
		if isUnimplemented(ctx, err) {
			return c.groundUnsupported(ctx, req)
		}
		return sdk.GroundResponse{}, callError(ctx, "ground", err)
	}
	resp, err := fromproto.GroundResponse(presp)
	if err != nil {
		return sdk.GroundResponse{}, sdk.Errorf(sdk.KindUnknown, "ground: malformed answer from the plugin: %w", err)
	}
	if err := checkGroundAnswer(req, resp); err != nil {
		return sdk.GroundResponse{}, err
	}
	return resp, nil
}

// groundUnsupported is the answer for a plugin without a Ground method.
func (c *sourceClient) groundUnsupported(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	info, err := c.Describe(ctx)
	if err != nil {
		return sdk.GroundResponse{}, err
	}
	resp := unknownTerms(req, notePredatesSDK)
	resp.Filters = fromproto.NilIfEmpty(info.Filters)
	return resp, nil
}

// isUnimplemented reports whether a call failed because the plugin's
// server has no such method, rather than because of the plugin's own error
// (which carries a detail) or the host's context ending.
func isUnimplemented(ctx context.Context, err error) bool {
	if hostContextErr(ctx) != nil {
		return false
	}
	f := wire.FailureOf(err)
	return f.Code == codes.Unimplemented && !f.Detailed
}
