package plugin_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingSource is the echo source whose version counts the Describe
// calls its process answered.
type countingSource struct {
	*echoSource
	described atomic.Int64
}

func (s *countingSource) Describe(ctx context.Context) (sdk.SourceInfo, error) {
	info, err := s.echoSource.Describe(ctx)
	info.Version = strconv.FormatInt(s.described.Add(1), 10)
	return info, err
}

// A source's process is asked Describe once: later calls answer as it did
// (a copy each: a caller changing its answer changes no other's), and a
// restarted process is asked again.
func TestDescribeAskedOncePerProcess(t *testing.T) {
	m, _ := newManager(t, plugin.Options{}, source("c", "builtin:counting"))
	ctx := context.Background()
	first, err := m.Describe(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, "1", first.Version)
	assert.Equal(t, []string{sdk.KindDocument}, first.Kinds)
	first.Kinds[0] = "changed"
	again, err := m.Describe(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, "1", again.Version, "answered without asking the plugin")
	assert.Equal(t, []string{sdk.KindDocument}, again.Kinds)
	pid := m.PIDs()["source/c"]

	err = m.Fetch(ctx, "c", fetchN(1, queryCrash), collect(new([]sdk.Record)))
	require.ErrorIs(t, err, sdk.ErrUnavailable)
	restarted, err := m.Describe(ctx, "c")
	require.NoError(t, err)
	assert.NotEqual(t, pid, m.PIDs()["source/c"], "a new process")
	assert.Equal(t, "1", restarted.Version, "the new process is asked")
}
