package plugin_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startHost runs this test binary as a plugin host (runHost) serving refs
// and returns it with the pids of the plugins it started.
func startHost(t *testing.T, refs string) (*exec.Cmd, map[string]int) {
	t.Helper()
	cmd := exec.Command(testExe(t))
	cmd.Env = append(os.Environ(), envHost+"="+refs)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })

	line, err := bufio.NewReader(out).ReadBytes('\n')
	require.NoError(t, err, "the host printed no pids")
	var pids map[string]int
	require.NoError(t, json.Unmarshal(line, &pids))
	require.Len(t, pids, 2)
	for name, pid := range pids {
		require.True(t, processAlive(pid), "%s (pid %d) is running before the host stops", name, pid)
	}
	return cmd, pids
}

func TestNoPluginOutlivesItsHost(t *testing.T) {
	dir := pluginDir(t, "echo")
	refs := "builtin:echo," + dir + "/nous-plugin-echo"
	tests := []struct {
		name   string
		signal os.Signal
		clean  bool // the host exits by itself, closing its plugins
	}{
		{"interrupted (Ctrl-C)", os.Interrupt, true},
		{"terminated", syscall.SIGTERM, true},
		{"killed outright", os.Kill, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host, pids := startHost(t, refs)
			require.NoError(t, host.Process.Signal(tt.signal))
			err := host.Wait()
			if tt.clean {
				require.NoError(t, err, "the host exits cleanly on %v", tt.signal)
			}
			for name, pid := range pids {
				assert.True(t, waitFor(t, 5*time.Second, func() bool { return !processAlive(pid) }),
					"%s (pid %d) outlived its host", name, pid)
			}
		})
	}
}
