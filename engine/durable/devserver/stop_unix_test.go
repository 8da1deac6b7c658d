//go:build unix

package devserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server that ignores SIGTERM is killed with its whole process group.
func TestStopKillsGroupThatIgnoresSIGTERM(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	// The child sleep inherits the ignored SIGTERM.
	cmd := exec.Command("sh", "-c", `trap "" TERM; sleep 600 & echo $! > "$1"; wait`, "sh", pidFile)
	s, err := startProcess(cmd, 100*time.Millisecond)
	require.NoError(t, err)
	var child int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(pidFile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && child > 0
	}, time.Minute, 10*time.Millisecond, "the script did not start its child")

	killed, err := s.stop()
	require.NoError(t, err)
	assert.True(t, killed, "SIGTERM was ignored, so SIGKILL was needed")
	assert.True(t, s.exited())
	assert.Eventually(t, func() bool { return gone(child) }, time.Minute, 10*time.Millisecond,
		"the child %d outlived its group's SIGKILL", child)

	killed, err = s.stop()
	assert.NoError(t, err, "a second stop is a no-op")
	assert.False(t, killed)
}

// gone reports whether pid no longer runs: it does not exist, or it is a
// zombie waiting for a reaper that this test does not control.
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return true
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return os.IsNotExist(err)
	}
	// stat is "pid (comm) state ...".
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}
