// Package fromproto converts the protocol form of nous plugin messages to
// sdk types: the generated messages of sdk/internal/proto, and fetch chunks
// decoded directly (ChunkReader). What a peer sent is untrusted: a bad time
// or field is an error, never a panic.
package fromproto

import (
	"encoding/json"
	"fmt"

	"github.com/nous-dev/nous/sdk"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/wire"
)

// Record converts p; it fails on a bad time or field.
func Record(p *pb.Record) (sdk.Record, error) {
	t, err := wire.TimeFromProto(p.GetTime())
	if err != nil {
		return sdk.Record{}, fmt.Errorf("record %q: time: %w", p.GetId(), err)
	}
	fields, err := wire.FieldsFromProto(p.GetFields())
	if err != nil {
		return sdk.Record{}, fmt.Errorf("record %q: %w", p.GetId(), err)
	}
	return sdk.Record{
		ID:     p.GetId(),
		Source: p.GetSource(),
		Kind:   p.GetKind(),
		Title:  p.GetTitle(),
		Body:   p.GetBody(),
		URL:    p.GetUrl(),
		Author: p.GetAuthor(),
		Time:   t,
		Tier:   int(p.GetTier()),
		Fields: fields,
	}, nil
}

// Records converts ps, naming the index of a record that fails.
func Records(ps []*pb.Record) ([]sdk.Record, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]sdk.Record, len(ps))
	for i, p := range ps {
		r, err := Record(p)
		if err != nil {
			return nil, fmt.Errorf("context[%d]: %w", i, err)
		}
		out[i] = r
	}
	return out, nil
}

// FetchRequest converts p; a bad time or a negative limit is an error.
func FetchRequest(p *pb.FetchRequest) (sdk.FetchRequest, error) {
	since, err := wire.TimeFromProto(p.GetSince())
	if err != nil {
		return sdk.FetchRequest{}, fmt.Errorf("since: %w", err)
	}
	until, err := wire.TimeFromProto(p.GetUntil())
	if err != nil {
		return sdk.FetchRequest{}, fmt.Errorf("until: %w", err)
	}
	if p.GetLimit() < 0 {
		return sdk.FetchRequest{}, fmt.Errorf("limit %d: must be 0 (no limit) or more", p.GetLimit())
	}
	return sdk.FetchRequest{
		Query:   p.GetQuery(),
		Kind:    p.GetKind(),
		Filters: wire.FiltersFromProto(p.GetFilters()),
		Since:   since,
		Until:   until,
		Limit:   int(p.GetLimit()),
	}, nil
}

// SourceInfo converts p.
func SourceInfo(p *pb.SourceInfo) sdk.SourceInfo {
	return sdk.SourceInfo{
		Name:         p.GetName(),
		Version:      p.GetVersion(),
		SDKVersion:   p.GetSdkVersion(),
		Kinds:        p.GetKinds(),
		Filters:      p.GetFilters(),
		ConfigSchema: RawJSON(p.GetConfigSchema()),
	}
}

// AgentInfo converts p.
func AgentInfo(p *pb.AgentInfo) sdk.AgentInfo {
	return sdk.AgentInfo{
		Name:         p.GetName(),
		Version:      p.GetVersion(),
		SDKVersion:   p.GetSdkVersion(),
		Roles:        p.GetRoles(),
		Models:       p.GetModels(),
		ConfigSchema: RawJSON(p.GetConfigSchema()),
	}
}

// Diagnostics converts ps, keeping every diagnostic; a severity this SDK
// does not know becomes an error, the safe reading of "something is wrong".
func Diagnostics(ps []*pb.Diagnostic) sdk.Diagnostics {
	if len(ps) == 0 {
		return nil
	}
	out := make(sdk.Diagnostics, len(ps))
	for i, p := range ps {
		sev := sdk.Severity(p.GetSeverity())
		if sev != sdk.SeverityWarning && sev != sdk.SeverityError {
			sev = sdk.SeverityError
		}
		out[i] = sdk.Diagnostic{Severity: sev, Summary: p.GetSummary(), Detail: p.GetDetail(), Path: p.GetPath()}
	}
	return out
}

// InvokeRequest converts p; it fails on a context record it cannot convert.
func InvokeRequest(p *pb.InvokeRequest) (sdk.InvokeRequest, error) {
	records, err := Records(p.GetContext())
	if err != nil {
		return sdk.InvokeRequest{}, err
	}
	return sdk.InvokeRequest{
		Role:         p.GetRole(),
		Instructions: p.GetInstructions(),
		Input:        RawJSON(p.GetInput()),
		Context:      records,
		Schema:       RawJSON(p.GetSchema()),
	}, nil
}

// InvokeResponse converts p.
func InvokeResponse(p *pb.InvokeResponse) sdk.InvokeResponse {
	u := p.GetUsage()
	return sdk.InvokeResponse{
		Output: RawJSON(p.GetOutput()),
		Usage: sdk.Usage{
			PromptTokens:     int(u.GetPromptTokens()),
			CompletionTokens: int(u.GetCompletionTokens()),
			Model:            u.GetModel(),
		},
	}
}

// RawJSON keeps "absent" as nil rather than an empty, invalid document.
func RawJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}
