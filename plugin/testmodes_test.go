package plugin_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
)

// identTrailer starts the identity a test appends to a copy of the test
// binary; the ident plugin reports what follows it as its version.
const identTrailer = "\nNOUS-TEST-IDENTITY:"

// identSource is the echo source whose version names the binary running.
type identSource struct{ *echoSource }

func (s identSource) Describe(ctx context.Context) (sdk.SourceInfo, error) {
	info, err := s.echoSource.Describe(ctx)
	info.Version = selfIdentity()
	return info, err
}

// envSource is the echo source whose version lists the TLS variables its
// process still has, and whether it can see the host's certificate.
type envSource struct{ *echoSource }

func (s envSource) Describe(ctx context.Context) (sdk.SourceInfo, error) {
	info, err := s.echoSource.Describe(ctx)
	var seen []string
	for _, name := range []string{host.EnvTLSCert, host.EnvTLSKey, "PLUGIN_CLIENT_CERT"} {
		if os.Getenv(name) != "" {
			seen = append(seen, name)
		}
	}
	info.Version = strings.Join(seen, ",")
	return info, err
}

// selfIdentity reads the identity trailer of the running executable: the
// file the kernel executed, whatever its path names now.
func selfIdentity() string {
	exe := "/proc/self/exe"
	if runtime.GOOS != "linux" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "unknown: " + err.Error()
		}
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown: " + err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "unknown: " + err.Error()
	}
	const tail = 64
	buf := make([]byte, tail)
	n, err := f.ReadAt(buf, max(fi.Size()-tail, 0))
	if err != nil && err != io.EOF {
		return "unknown: " + err.Error()
	}
	_, id, ok := bytes.Cut(buf[:n], []byte(identTrailer))
	if !ok {
		return "none"
	}
	return string(id)
}

// spawnerSource is the echo source of a plugin that started a child; its
// records carry the child's pid.
type spawnerSource struct {
	*echoSource
	child int
}

func (s *spawnerSource) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	return s.echoSource.Fetch(ctx, req, func(r sdk.Record) error {
		r.Fields["child"] = int64(s.child)
		return emit(r)
	})
}

// spawnSleeper starts `sleep 3600` and returns its pid (0 if it could not).
func spawnSleeper() int {
	cmd := exec.Command("sleep", "3600")
	cmd.Stderr = os.Stderr // holds the plugin's stderr pipe open, as careless children do
	if err := cmd.Start(); err != nil {
		return 0
	}
	return cmd.Process.Pid
}
