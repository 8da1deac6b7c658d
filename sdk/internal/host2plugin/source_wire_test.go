package host2plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 5, 1, 12, 30, 15, 123456789, time.UTC)

// manyRecords builds n records that use every field type.
func manyRecords(n int) []sdk.Record {
	records := make([]sdk.Record, n)
	for i := range records {
		records[i] = sdk.Record{
			ID:     fmt.Sprintf("rec-%05d", i),
			Source: "gitlab.example.com",
			Kind:   sdk.KindCommit,
			Title:  fmt.Sprintf("Commit %d: fix the payment retry", i),
			Body:   "Retry idempotently when the gateway times out.\nRefs #42 — ünïcødé",
			URL:    fmt.Sprintf("https://gitlab.example.com/pay/-/commit/%x", i),
			Author: "ana",
			Time:   t0.Add(time.Duration(i) * time.Minute),
			Tier:   i % 4,
			Fields: map[string]any{
				"additions": int64(i),
				"ratio":     float64(i) / 7,
				"merged":    i%2 == 0,
				"merged_at": t0.Add(time.Duration(i) * time.Hour),
				"labels":    []string{"payments", fmt.Sprint("l", i%3)},
				"project":   "pay",
				"empty":     []string{},
			},
		}
	}
	return records
}

func TestDescribeAndConfigureCrossTheWire(t *testing.T) {
	var gotConfig json.RawMessage
	src := sdktest.Source(t, &fakeSource{
		info: sdk.SourceInfo{
			Name: "fake", Version: "1.2.3",
			Kinds: []string{sdk.KindIssue, sdk.KindCommit}, Filters: []string{"projects", "dates"},
			ConfigSchema: json.RawMessage(`{"type":"object"}`),
		},
		configure: func(_ context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
			gotConfig = config
			return sdk.Diagnostics{
				{Severity: sdk.SeverityWarning, Summary: "Deprecated key", Detail: "use base_url", Path: "url"},
				{Severity: sdk.SeverityError, Summary: "Missing token", Path: "token"},
			}, nil
		},
	})
	ctx := context.Background()

	info, err := src.Describe(ctx)
	require.NoError(t, err)
	assert.Equal(t, sdk.SourceInfo{
		Name: "fake", Version: "1.2.3", SDKVersion: sdk.Version,
		Kinds: []string{sdk.KindIssue, sdk.KindCommit}, Filters: []string{"projects", "dates"},
		ConfigSchema: json.RawMessage(`{"type":"object"}`),
	}, info, "an empty SDKVersion is filled with the plugin's sdk.Version")

	diags, err := src.Configure(ctx, json.RawMessage(`{"url":"https://x"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"url":"https://x"}`, string(gotConfig))
	assert.Equal(t, sdk.Diagnostics{
		{Severity: sdk.SeverityWarning, Summary: "Deprecated key", Detail: "use base_url", Path: "url"},
		{Severity: sdk.SeverityError, Summary: "Missing token", Path: "token"},
	}, diags)
	assert.True(t, diags.HasErrors())
}

func TestFetchStreams10kRecordsIntactAndInOrder(t *testing.T) {
	want := manyRecords(10_000)
	var gotReq sdk.FetchRequest
	src := sdktest.Source(t, &fakeSource{fetch: func(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
		gotReq = req
		return emitAll(want)(ctx, req, emit)
	}})
	req := sdk.FetchRequest{
		Query:   "Retrieve commit data from GitLab projects:pay dates:last week",
		Kind:    sdk.KindCommit,
		Filters: map[string][]string{"projects": {"pay", "billing"}, "dates": {"last week"}, "none": {}},
		Since:   t0.Add(-7 * 24 * time.Hour),
		Until:   t0,
	}

	got, err := sdktest.Collect(context.Background(), src, req)
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, want[i], got[i], "record %d", i)
	}
	assert.Equal(t, req, gotReq, "the request reaches the plugin unchanged")
}

func TestFetchLimitStopsTheSource(t *testing.T) {
	stopped := make(chan error, 1)
	src := sdktest.Source(t, &fakeSource{fetch: func(_ context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
		for i := 0; ; i++ {
			if err := emit(sdk.Record{ID: fmt.Sprint(i)}); err != nil {
				stopped <- err
				return err
			}
		}
	}})

	got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{Limit: 5})
	require.NoError(t, err, "reaching the limit is success")
	require.Len(t, got, 5)
	assert.Equal(t, "4", got[4].ID)
	select {
	case err := <-stopped:
		assert.Error(t, err, "emit fails once the limit is reached, so an endless source ends")
	case <-time.After(10 * time.Second):
		t.Fatal("the source was never told to stop")
	}
}

func TestFetchEmitErrorStopsTheStream(t *testing.T) {
	sourceSaw := make(chan error, 1)
	src := sdktest.Source(t, &fakeSource{fetch: func(ctx context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
		for i := 0; ; i++ {
			if err := emit(sdk.Record{ID: fmt.Sprint(i)}); err != nil {
				sourceSaw <- err
				return err
			}
			if i > 1000 {
				// give the host's cancellation time to arrive between chunks
				time.Sleep(time.Millisecond)
			}
		}
	}})
	hostErr := errors.New("downstream is full")
	n := 0
	err := src.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error {
		n++
		if n == 3 {
			return hostErr
		}
		return nil
	})
	require.ErrorIs(t, err, hostErr, "Fetch returns emit's error unchanged")
	assert.Equal(t, 3, n, "no record is emitted after emit failed")
	select {
	case err := <-sourceSaw:
		assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err), "the plugin's emit reports the cancelled call: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the source kept streaming after the host stopped")
	}
}

func TestFetchKeepsRecordsEmittedBeforeAnError(t *testing.T) {
	src := sdktest.Source(t, &fakeSource{fetch: func(_ context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
		for i := range 3 {
			if err := emit(sdk.Record{ID: fmt.Sprint(i)}); err != nil {
				return err
			}
		}
		return sdk.Errorf(sdk.KindRateLimited, "gitlab: 429 Too Many Requests, retry after 30s")
	}})

	got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
	require.Error(t, err)
	assert.Len(t, got, 3)
	assert.ErrorIs(t, err, sdk.ErrRateLimited)
	assert.EqualError(t, err, "gitlab: 429 Too Many Requests, retry after 30s")
}

func TestFetchPanicMidStreamIsAClearErrorAndTheNextCallWorks(t *testing.T) {
	calls := 0
	src := sdktest.Source(t, &fakeSource{fetch: func(_ context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
		calls++
		if calls == 1 {
			for i := range 2500 { // more than one chunk (2048 records), so part of the stream is already sent
				if err := emit(sdk.Record{ID: fmt.Sprint(i)}); err != nil {
					return err
				}
			}
			var m map[string]int
			m["boom"]++ // nil map write
		}
		return emit(sdk.Record{ID: "after"})
	}})

	got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
	require.Error(t, err)
	assert.EqualError(t, err, "plugin panicked in Fetch: assignment to entry in nil map")
	assert.Len(t, got, 2500, "records emitted before the panic still arrive")

	got, err = sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "after", got[0].ID)
}

func TestFetchUnsupportedFieldTypeNamesTheField(t *testing.T) {
	src := sdktest.Source(t, &fakeSource{fetch: emitAll([]sdk.Record{
		{ID: "ok", Fields: map[string]any{"n": 1, "f": float32(0.5)}},
		{ID: "bad", Fields: map[string]any{"owner": map[string]string{"name": "ana"}}},
	})})

	got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `record "bad": field "owner": unsupported value type map[string]string`)
	require.Len(t, got, 1, "the good record before the bad one arrives")
	assert.Equal(t, map[string]any{"n": int64(1), "f": float64(0.5)}, got[0].Fields, "int and float32 widen")
}

func TestInvalidUTF8IsReplacedNotFatal(t *testing.T) {
	src := sdktest.Source(t, &fakeSource{fetch: emitAll([]sdk.Record{{ID: "x", Body: "caf\xe9 au lait"}})})
	got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "caf\uFFFD au lait", got[0].Body)
}

func TestNegativeLimitIsABadRequest(t *testing.T) {
	src := sdktest.Source(t, &fakeSource{})
	_, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{Limit: -1})
	require.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Contains(t, err.Error(), "limit -1")
}

func TestSlowSourceRecordsArriveWithoutWaitingForTheNext(t *testing.T) {
	arrived := make(chan struct{})
	src := sdktest.Source(t, &fakeSource{fetch: func(ctx context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
		if err := emit(sdk.Record{ID: "first"}); err != nil {
			return err
		}
		// A slow upstream: the next page comes only after the host has
		// seen the first record.
		select {
		case <-arrived:
		case <-time.After(10 * time.Second):
			return errors.New("the first record never reached the host")
		}
		return emit(sdk.Record{ID: "second"})
	}})
	var got []string
	err := src.Fetch(context.Background(), sdk.FetchRequest{}, func(r sdk.Record) error {
		got = append(got, r.ID)
		if r.ID == "first" {
			close(arrived)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "second"}, got)
}
