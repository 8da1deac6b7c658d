// Package toproto converts sdk types to their protocol form: the generated
// messages of sdk/internal/proto, and fetch chunks encoded directly
// (AppendRecord). The value-level work (typed fields, times, invalid
// UTF-8) lives in sdk/internal/wire; here it is field assignment.
package toproto

import (
	"fmt"

	"github.com/nous-dev/nous/sdk"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/wire"
)

// Record converts r; it fails on a field of an unsupported type.
func Record(r sdk.Record) (*pb.Record, error) {
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

// Records converts rs, naming the index of a record that fails.
func Records(rs []sdk.Record) ([]*pb.Record, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	out := make([]*pb.Record, len(rs))
	for i, r := range rs {
		p, err := Record(r)
		if err != nil {
			return nil, fmt.Errorf("context[%d]: %w", i, err)
		}
		out[i] = p
	}
	return out, nil
}

// FetchRequest converts r; a negative limit is an error.
func FetchRequest(r sdk.FetchRequest) (*pb.FetchRequest, error) {
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

// SourceInfo converts i.
func SourceInfo(i sdk.SourceInfo) *pb.SourceInfo {
	return &pb.SourceInfo{
		Name:         wire.ValidUTF8(i.Name),
		Version:      wire.ValidUTF8(i.Version),
		SdkVersion:   wire.ValidUTF8(i.SDKVersion),
		Kinds:        wire.StringsToProto(i.Kinds).GetValues(),
		Filters:      wire.StringsToProto(i.Filters).GetValues(),
		ConfigSchema: i.ConfigSchema,
	}
}

// AgentInfo converts i.
func AgentInfo(i sdk.AgentInfo) *pb.AgentInfo {
	return &pb.AgentInfo{
		Name:         wire.ValidUTF8(i.Name),
		Version:      wire.ValidUTF8(i.Version),
		SdkVersion:   wire.ValidUTF8(i.SDKVersion),
		Roles:        wire.StringsToProto(i.Roles).GetValues(),
		Models:       wire.StringsToProto(i.Models).GetValues(),
		ConfigSchema: i.ConfigSchema,
	}
}

// Diagnostics converts ds.
func Diagnostics(ds sdk.Diagnostics) []*pb.Diagnostic {
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

// InvokeRequest converts r; it fails on a context record it cannot convert.
func InvokeRequest(r sdk.InvokeRequest) (*pb.InvokeRequest, error) {
	records, err := Records(r.Context)
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

// InvokeResponse converts r.
func InvokeResponse(r sdk.InvokeResponse) *pb.InvokeResponse {
	return &pb.InvokeResponse{
		Output: r.Output,
		Usage: &pb.Usage{
			PromptTokens:     int64(r.Usage.PromptTokens),
			CompletionTokens: int64(r.Usage.CompletionTokens),
			Model:            wire.ValidUTF8(r.Usage.Model),
		},
	}
}
