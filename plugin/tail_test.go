package plugin_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLastStderrLineIsAlwaysShown runs plugins that print a last line on
// stderr and exit, before and after the handshake: every run's error
// quotes that line.
func TestLastStderrLineIsAlwaysShown(t *testing.T) {
	const runs = 8
	t.Run("exit during a call", func(t *testing.T) {
		m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
		for i := range runs {
			err := m.Fetch(context.Background(), "docs", fetchN(1, queryLast), collect(new([]sdk.Record)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), lastWords, "run %d", i)
		}
	})
	t.Run("exit before the handshake", func(t *testing.T) {
		m, _ := newManager(t, plugin.Options{}, source("docs", "builtin:exit"))
		for i := range runs {
			err := m.Fetch(context.Background(), "docs", fetchN(1, ""), collect(new([]sdk.Record)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "echo: cannot open /nonexistent/config.json", "run %d", i)
		}
	})
}

// TestLongStdoutLineBeforeTheHandshake: a 200 KB banner on stdout is shown,
// truncated, with its size, not reported as silence.
func TestLongStdoutLineBeforeTheHandshake(t *testing.T) {
	m, _ := newManager(t, plugin.Options{})
	info := m.Inspect(context.Background(), "builtin:bigbanner", "")
	require.NotEmpty(t, info.Error)
	assert.NotContains(t, info.Error, "no output on stderr")
	assert.Contains(t, info.Error, "stdout")
	assert.Contains(t, info.Error, "204800 bytes")
	assert.Contains(t, info.Error, "xxxxxxxx")
	assert.Less(t, len(info.Error), 8<<10, "the line is truncated in the message")
}

// TestLongErrorLineStaysAnError: an hclog error line over 64 KiB is logged
// as an error, truncated, with its size.
func TestLongErrorLineStaysAnError(t *testing.T) {
	m, logs := newManager(t, plugin.Options{}, source("docs", "builtin:echo"))
	err := m.Fetch(context.Background(), "docs", fetchN(1, queryBigLog), collect(new([]sdk.Record)))
	require.ErrorContains(t, err, "upstream failed")
	var found map[string]any
	// stderr is read as the plugin writes it, not in step with the call.
	waitFor(t, 5*time.Second, func() bool {
		for _, e := range logs.entries(t) {
			if msg, _ := e["@message"].(string); strings.Contains(msg, "upstream said") {
				found = e
			}
		}
		return found != nil
	})
	require.NotNil(t, found, "the long line was logged")
	assert.Equal(t, hclog.Error.String(), found["@level"])
	msg := found["@message"].(string)
	assert.Contains(t, msg, "yyyy")
	assert.Contains(t, msg, "truncated")
	assert.Less(t, len(msg), 64<<10, "the logged line is truncated")
}
