package sdk_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What an author imports for types, and what rules imports for redaction,
// must not pull in the plugin transport: gRPC, protobuf and go-plugin stay
// behind sdk/plugin and sdk/host.
func TestLeafPackagesImportNoTransport(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		t.Skipf("no go command at %s: %v", goBin, err)
	}
	pkgs := []string{"./sdk", "./sdk/redact", "./sdk/timerange", "./rules"}
	cmd := exec.Command(goBin, append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, pkgs...)...)
	cmd.Dir = ".." // the module root
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go list: %s", out)
	var deps, transport []string
	for dep := range strings.Lines(string(out)) {
		dep = strings.TrimSpace(dep)
		deps = append(deps, dep)
		for _, banned := range []string{"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/hashicorp/go-plugin"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				transport = append(transport, dep)
			}
		}
	}
	require.Contains(t, deps, "github.com/nous-dev/nous/sdk", "go list answered for the packages asked")
	assert.Empty(t, transport, "%v import the plugin transport", pkgs)
}
