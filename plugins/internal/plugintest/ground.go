package plugintest

import (
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/require"
)

// Ground serves impl over the plugin protocol and grounds terms through
// it, with the host's checks of the answer; the call must succeed.
func Ground(t testing.TB, impl sdk.Source, terms ...sdk.Term) sdk.GroundResponse {
	t.Helper()
	resp, err := sdktest.Ground(t.Context(), sdktest.Source(t, impl), sdk.GroundRequest{Terms: terms})
	require.NoError(t, err)
	return resp
}
