package sdk

import (
	"encoding/json"
	"fmt"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/wire"
)

// The record-level mapping between sdk types and their protocol form. The
// value-level work (typed fields, times, invalid UTF-8, statuses) lives in
// sdk/internal/wire; here it is field assignment and nothing else.

func recordToProto(r Record) (*pb.Record, error) {
	fields, err := wire.FieldsToProto(r.Fields)
	if err != nil {
		return nil, fmt.Errorf("record %q: %w", r.ID, err)
	}
	return &pb.Record{
		Id:     wire.ValidUTF8(r.ID),
		Source: wire.ValidUTF8(r.Source),
		Kind:   wire.ValidUTF8(r.Kind),
		Title:  wire.ValidUTF8(r.Title),
		Body:   wire.ValidUTF8(r.Body),
		Url:    wire.ValidUTF8(r.URL),
		Author: wire.ValidUTF8(r.Author),
		Time:   wire.TimeToProto(r.Time),
		Tier:   int64(r.Tier),
		Fields: fields,
	}, nil
}

func recordFromProto(p *pb.Record) (Record, error) {
	t, err := wire.TimeFromProto(p.GetTime())
	if err != nil {
		return Record{}, fmt.Errorf("record %q: time: %w", p.GetId(), err)
	}
	fields, err := wire.FieldsFromProto(p.GetFields())
	if err != nil {
		return Record{}, fmt.Errorf("record %q: %w", p.GetId(), err)
	}
	return Record{
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

func recordsToProto(rs []Record) ([]*pb.Record, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	out := make([]*pb.Record, len(rs))
	for i, r := range rs {
		p, err := recordToProto(r)
		if err != nil {
			return nil, fmt.Errorf("context[%d]: %w", i, err)
		}
		out[i] = p
	}
	return out, nil
}

func recordsFromProto(ps []*pb.Record) ([]Record, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]Record, len(ps))
	for i, p := range ps {
		r, err := recordFromProto(p)
		if err != nil {
			return nil, fmt.Errorf("context[%d]: %w", i, err)
		}
		out[i] = r
	}
	return out, nil
}

func fetchRequestToProto(r FetchRequest) (*pb.FetchRequest, error) {
	if r.Limit < 0 {
		return nil, fmt.Errorf("limit %d: must be 0 (no limit) or more", r.Limit)
	}
	return &pb.FetchRequest{
		Query:   wire.ValidUTF8(r.Query),
		Kind:    wire.ValidUTF8(r.Kind),
		Filters: wire.FiltersToProto(r.Filters),
		Since:   wire.TimeToProto(r.Since),
		Until:   wire.TimeToProto(r.Until),
		Limit:   int64(r.Limit),
	}, nil
}

func fetchRequestFromProto(p *pb.FetchRequest) (FetchRequest, error) {
	since, err := wire.TimeFromProto(p.GetSince())
	if err != nil {
		return FetchRequest{}, fmt.Errorf("since: %w", err)
	}
	until, err := wire.TimeFromProto(p.GetUntil())
	if err != nil {
		return FetchRequest{}, fmt.Errorf("until: %w", err)
	}
	if p.GetLimit() < 0 {
		return FetchRequest{}, fmt.Errorf("limit %d: must be 0 (no limit) or more", p.GetLimit())
	}
	return FetchRequest{
		Query:   p.GetQuery(),
		Kind:    p.GetKind(),
		Filters: wire.FiltersFromProto(p.GetFilters()),
		Since:   since,
		Until:   until,
		Limit:   int(p.GetLimit()),
	}, nil
}

func sourceInfoToProto(i SourceInfo) *pb.SourceInfo {
	return &pb.SourceInfo{
		Name:         wire.ValidUTF8(i.Name),
		Version:      wire.ValidUTF8(i.Version),
		SdkVersion:   wire.ValidUTF8(i.SDKVersion),
		Kinds:        wire.StringsToProto(i.Kinds).GetValues(),
		Filters:      wire.StringsToProto(i.Filters).GetValues(),
		ConfigSchema: i.ConfigSchema,
	}
}

func sourceInfoFromProto(p *pb.SourceInfo) SourceInfo {
	return SourceInfo{
		Name:         p.GetName(),
		Version:      p.GetVersion(),
		SDKVersion:   p.GetSdkVersion(),
		Kinds:        p.GetKinds(),
		Filters:      p.GetFilters(),
		ConfigSchema: rawJSON(p.GetConfigSchema()),
	}
}

func agentInfoToProto(i AgentInfo) *pb.AgentInfo {
	return &pb.AgentInfo{
		Name:         wire.ValidUTF8(i.Name),
		Version:      wire.ValidUTF8(i.Version),
		SdkVersion:   wire.ValidUTF8(i.SDKVersion),
		Roles:        wire.StringsToProto(i.Roles).GetValues(),
		Models:       wire.StringsToProto(i.Models).GetValues(),
		ConfigSchema: i.ConfigSchema,
	}
}

func agentInfoFromProto(p *pb.AgentInfo) AgentInfo {
	return AgentInfo{
		Name:         p.GetName(),
		Version:      p.GetVersion(),
		SDKVersion:   p.GetSdkVersion(),
		Roles:        p.GetRoles(),
		Models:       p.GetModels(),
		ConfigSchema: rawJSON(p.GetConfigSchema()),
	}
}

func diagnosticsToProto(ds Diagnostics) []*pb.Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	out := make([]*pb.Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = &pb.Diagnostic{
			Severity: pb.Severity(d.Severity),
			Summary:  wire.ValidUTF8(d.Summary),
			Detail:   wire.ValidUTF8(d.Detail),
			Path:     wire.ValidUTF8(d.Path),
		}
	}
	return out
}

// diagnosticsFromProto keeps every diagnostic; a severity this SDK does not
// know becomes an error, the safe reading of "something is wrong".
func diagnosticsFromProto(ps []*pb.Diagnostic) Diagnostics {
	if len(ps) == 0 {
		return nil
	}
	out := make(Diagnostics, len(ps))
	for i, p := range ps {
		sev := Severity(p.GetSeverity())
		if sev != SeverityWarning && sev != SeverityError {
			sev = SeverityError
		}
		out[i] = Diagnostic{Severity: sev, Summary: p.GetSummary(), Detail: p.GetDetail(), Path: p.GetPath()}
	}
	return out
}

func invokeRequestToProto(r InvokeRequest) (*pb.InvokeRequest, error) {
	records, err := recordsToProto(r.Context)
	if err != nil {
		return nil, err
	}
	return &pb.InvokeRequest{
		Role:         wire.ValidUTF8(r.Role),
		Instructions: wire.ValidUTF8(r.Instructions),
		Input:        r.Input,
		Context:      records,
		Schema:       r.Schema,
	}, nil
}

func invokeRequestFromProto(p *pb.InvokeRequest) (InvokeRequest, error) {
	records, err := recordsFromProto(p.GetContext())
	if err != nil {
		return InvokeRequest{}, err
	}
	return InvokeRequest{
		Role:         p.GetRole(),
		Instructions: p.GetInstructions(),
		Input:        rawJSON(p.GetInput()),
		Context:      records,
		Schema:       rawJSON(p.GetSchema()),
	}, nil
}

func invokeResponseToProto(r InvokeResponse) *pb.InvokeResponse {
	return &pb.InvokeResponse{
		Output: r.Output,
		Usage: &pb.Usage{
			PromptTokens:     int64(r.Usage.PromptTokens),
			CompletionTokens: int64(r.Usage.CompletionTokens),
			Model:            wire.ValidUTF8(r.Usage.Model),
		},
	}
}

func invokeResponseFromProto(p *pb.InvokeResponse) InvokeResponse {
	u := p.GetUsage()
	return InvokeResponse{
		Output: rawJSON(p.GetOutput()),
		Usage: Usage{
			PromptTokens:     int(u.GetPromptTokens()),
			CompletionTokens: int(u.GetCompletionTokens()),
			Model:            u.GetModel(),
		},
	}
}

// rawJSON keeps "absent" as nil rather than an empty, invalid document.
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}
