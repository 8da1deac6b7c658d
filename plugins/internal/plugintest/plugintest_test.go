package plugintest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
)

func TestWaitsRecordThePolicysBackoff(t *testing.T) {
	var w Waits
	calls := 0
	err := w.Policy().Do(context.Background(), func(context.Context) error {
		calls++
		return retry.After(errors.New("busy"), nil)
	})
	var giveUp *retry.GiveUpError
	require.ErrorAs(t, err, &giveUp)
	assert.Equal(t, 4, calls)
	assert.Equal(t, []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}, w.Recorded(), "half of 100ms·2^n: jitter is zero")
}

func TestBufferConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { fmt.Fprintf(&b, "%d\n", i) })
	}
	wg.Wait()
	assert.Len(t, b.String(), 16)
}

func TestPorts(t *testing.T) {
	recs := Records{{ID: "a"}, {ID: "b"}}
	var got []string
	require.NoError(t, recs.Fetch(context.Background(), "any", sdk.FetchRequest{}, func(r sdk.Record) error {
		got = append(got, r.ID)
		return nil
	}))
	assert.Equal(t, []string{"a", "b"}, got)
	stop := errors.New("stop")
	assert.ErrorIs(t, recs.Fetch(context.Background(), "any", sdk.FetchRequest{}, func(sdk.Record) error { return stop }), stop)
}
