package host2plugin_test

import (
	"context"
	"encoding/json"

	"github.com/nous-dev/nous/sdk"
)

// fakeSource is a Source whose behaviour each test supplies.
type fakeSource struct {
	info      sdk.SourceInfo
	describe  func(ctx context.Context) (sdk.SourceInfo, error)
	configure func(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error)
	fetch     func(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error
}

func (f *fakeSource) Describe(ctx context.Context) (sdk.SourceInfo, error) {
	if f.describe != nil {
		return f.describe(ctx)
	}
	return f.info, nil
}

func (f *fakeSource) Configure(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
	if f.configure != nil {
		return f.configure(ctx, config)
	}
	return nil, nil
}

func (f *fakeSource) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	if f.fetch != nil {
		return f.fetch(ctx, req, emit)
	}
	return nil
}

// emitAll is a Fetch that emits records in order.
func emitAll(records []sdk.Record) func(context.Context, sdk.FetchRequest, func(sdk.Record) error) error {
	return func(_ context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
		for _, r := range records {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// fakeAgent is an Agent whose behaviour each test supplies.
type fakeAgent struct {
	info      sdk.AgentInfo
	configure func(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error)
	invoke    func(ctx context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error)
}

func (f *fakeAgent) Describe(context.Context) (sdk.AgentInfo, error) { return f.info, nil }

func (f *fakeAgent) Configure(ctx context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
	if f.configure != nil {
		return f.configure(ctx, config)
	}
	return nil, nil
}

func (f *fakeAgent) Invoke(ctx context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	if f.invoke != nil {
		return f.invoke(ctx, req)
	}
	return sdk.InvokeResponse{Output: json.RawMessage(`{}`)}, nil
}
