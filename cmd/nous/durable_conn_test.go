//go:build temporal

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine/durable"
)

// appWithEnv is an app whose environment is env alone.
func appWithEnv(t *testing.T, env map[string]string) *app {
	if _, ok := env["TEMPORAL_CONFIG_FILE"]; !ok {
		env["TEMPORAL_CONFIG_FILE"] = filepath.Join(t.TempDir(), "none.toml") // not the user's own
	}
	return &app{getenv: func(k string) string { return env[k] }, environ: func() []string {
		var out []string
		for k, v := range env {
			out = append(out, k+"="+v)
		}
		return out
	}}
}

func TestTaskQueueDefaultIsDurables(t *testing.T) {
	assert.Equal(t, durable.DefaultTaskQueue, defaultTaskQueue, "the flag's default, kept apart for the build without Temporal")
}

func TestTemporalConnectionFollowsTemporalsOwnConfiguration(t *testing.T) {
	t.Run("plaintext without configuration", func(t *testing.T) {
		conn, err := appWithEnv(t, map[string]string{}).temporalConnection()
		require.NoError(t, err)
		assert.Nil(t, conn.ConnectionOptions.TLS)
		assert.Nil(t, conn.Credentials)
	})
	t.Run("an API key means TLS and the key as credentials", func(t *testing.T) {
		conn, err := appWithEnv(t, map[string]string{"TEMPORAL_API_KEY": "tmprl-key-0123456789"}).temporalConnection()
		require.NoError(t, err)
		assert.NotNil(t, conn.ConnectionOptions.TLS)
		assert.NotNil(t, conn.Credentials)
	})
	t.Run("a profile file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "temporal.toml")
		require.NoError(t, os.WriteFile(file, []byte("[profile.default]\napi_key = \"tmprl-key-from-file\"\n"), 0o600))
		conn, err := appWithEnv(t, map[string]string{"TEMPORAL_CONFIG_FILE": file}).temporalConnection()
		require.NoError(t, err)
		assert.NotNil(t, conn.Credentials)
	})
	t.Run("a client certificate that cannot be read is a clear error", func(t *testing.T) {
		_, err := appWithEnv(t, map[string]string{"TEMPORAL_TLS_CLIENT_CERT_PATH": "/nonexistent/client.pem",
			"TEMPORAL_TLS_CLIENT_KEY_PATH": "/nonexistent/client.key"}).temporalConnection()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Temporal's client configuration")
		assert.Contains(t, err.Error(), "/nonexistent/client.pem")
	})
}

func TestTemporalAPIKeyStaysSecret(t *testing.T) {
	withoutTokens(t)
	const key = "tmprl-secret-api-key-0123456789"
	t.Setenv("TEMPORAL_API_KEY", key)
	t.Setenv("TEMPORAL_CONFIG_FILE", filepath.Join(t.TempDir(), "none.toml"))
	_, rules := durableRepo(t)
	out, stderr, code := runAsk(t, "--rules", rules, "--temporal", "127.0.0.1:1", "what changed last week?")
	assert.Equal(t, exitFindings, code, "no service there: the run fails")
	assert.Contains(t, stderr, "connecting to Temporal at 127.0.0.1:1")
	assert.False(t, strings.Contains(out+stderr, key), "the API key appears nowhere: %s", stderr)
}
