package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"

	"github.com/nous-dev/nous/sdk"
)

func TestRecordsKeepTheirFieldTypes(t *testing.T) {
	at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	in := records{
		{ID: "a1", Source: "git", Kind: sdk.KindCommit, Title: "fix", Time: at, Fields: map[string]any{
			"additions": int64(12), "ratio": 0.25, "merge": true, "paths": []string{"a.go", "b/c.go"}, "none": []string(nil),
			"committed": at, "email": "ada@example.com",
		}},
		{ID: "a2", Source: "git", Kind: sdk.KindCommit},
	}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	var out records
	require.NoError(t, json.Unmarshal(b, &out))
	require.Len(t, out, 2)
	assert.Equal(t, int64(12), out[0].Fields["additions"])
	assert.Equal(t, 0.25, out[0].Fields["ratio"])
	assert.Equal(t, true, out[0].Fields["merge"])
	assert.Equal(t, []string{"a.go", "b/c.go"}, out[0].Fields["paths"])
	assert.Equal(t, []string{}, out[0].Fields["none"], "a nil list arrives empty, still a list")
	assert.True(t, at.Equal(out[0].Fields["committed"].(time.Time)))
	assert.Equal(t, "ada@example.com", out[0].Fields["email"])
	assert.True(t, at.Equal(out[0].Time))
	assert.Nil(t, out[1].Fields)
}

func TestRecordsRefuseWhatTheyCannotType(t *testing.T) {
	_, err := json.Marshal(records{{ID: "x", Fields: map[string]any{"odd": struct{}{}}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `record "x" field "odd": a value of type struct {}`)

	var out records
	err = json.Unmarshal([]byte(`[{"id":"x","fields":{"f":{}}}]`), &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `record "x" field "f": no typed value`)
}

func FuzzRecords(f *testing.F) {
	f.Add([]byte(`[{"id":"a","fields":{"n":{"i":3},"s":{"s":"x"},"l":{"l":["a"]},"t":{"t":"2026-01-01T00:00:00Z"}}}]`))
	f.Add([]byte(`[{"id":"a","fields":{"n":{}}}]`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var rs records
		if json.Unmarshal(b, &rs) != nil {
			return
		}
		again, err := json.Marshal(rs)
		require.NoError(t, err, "what decodes encodes")
		var back records
		require.NoError(t, json.Unmarshal(again, &back), "and decodes again")
		assert.Len(t, back, len(rs))
	})
}

func TestPluginErrorsKeepTheirKind(t *testing.T) {
	app := temporal.NewApplicationError("rate limit: retry after 30s", sdk.KindRateLimited.String())
	err := pluginError("gitlab", fmt.Errorf("activity error: %w", app)) // as an *ActivityError wraps it
	assert.Equal(t, sdk.KindRateLimited, sdk.KindOf(err))
	assert.Equal(t, "rate limit: retry after 30s", err.Error())

	err = pluginError("gitlab", temporal.NewTimeoutError(enums.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE, nil))
	assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err))
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "a time-out reads as the deadline it is")

	err = pluginError("gitlab", temporal.NewCanceledError())
	assert.True(t, errors.Is(err, context.Canceled))

	assert.Equal(t, sdk.KindUnknown, kindNamed("kind(99)"))
	for k := sdk.KindUnknown; k <= sdk.KindUnauthorized; k++ {
		assert.Equal(t, k, kindNamed(k.String()))
	}
}
