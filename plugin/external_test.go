package plugin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exampleDir holds the built example plugin; TestMain removes it.
var exampleDir string

// exampleBuild builds examples/jsonl-source, an external plugin in its own
// module, once per test binary.
var exampleBuild = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "nous-plugin-test-")
	if err != nil {
		return "", err
	}
	exampleDir = dir
	bin := filepath.Join(dir, "nous-plugin-jsonl")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "examples", "jsonl-source")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build in %s: %v\n%s", cmd.Dir, err, out)
	}
	return bin, nil
})

// examplePlugin returns the built example plugin, or skips the test when it
// cannot be built here (no go toolchain or module cache).
func examplePlugin(t testing.TB) string {
	t.Helper()
	bin, err := exampleBuild()
	if err != nil {
		t.Skipf("cannot build the example plugin, skipping: %v", err)
	}
	return bin
}

func TestExternalExamplePlugin(t *testing.T) {
	bin := examplePlugin(t)
	data := filepath.Join(t.TempDir(), "events.jsonl")
	var lines bytes.Buffer
	for i := range 1000 {
		author := "ana"
		if i%4 == 0 {
			author = "bo"
		}
		fmt.Fprintf(&lines, `{"id":"e%d","kind":"issue","title":"event %d","author":%q,"time":"2026-05-01T12:00:00Z","n":%d}`+"\n", i, i, author, i)
	}
	require.NoError(t, os.WriteFile(data, lines.Bytes(), 0o644))
	sum, err := plugin.FileSHA256(bin)
	require.NoError(t, err)
	config, err := json.Marshal(map[string]any{"path": data})
	require.NoError(t, err)

	m, _ := newManager(t, plugin.Options{Dirs: []string{filepath.Dir(bin)}},
		plugin.Spec{Name: "events", Kind: plugin.KindSource, Ref: "jsonl", SHA256: sum, Config: config})

	var rs []sdk.Record
	require.NoError(t, m.Fetch(context.Background(), "events", sdk.FetchRequest{Filters: map[string][]string{"author": {"bo"}}}, collect(&rs)))
	require.Len(t, rs, 250)
	assert.Equal(t, "e0", rs[0].ID)
	assert.Equal(t, "issue", rs[0].Kind)
	assert.Equal(t, "bo", rs[0].Author)

	rs = nil
	require.NoError(t, m.Fetch(context.Background(), "events", sdk.FetchRequest{Limit: 7}, collect(&rs)))
	assert.Len(t, rs, 7)
	for i, r := range rs {
		assert.Equal(t, "e"+strconv.Itoa(i), r.ID)
	}

	info := m.Inspect(context.Background(), "jsonl", sum)
	require.Empty(t, info.Error)
	assert.Equal(t, bin, info.Path)
	assert.False(t, info.Builtin)
	assert.Equal(t, plugin.ChecksumOK, info.Checksum)
	require.NotNil(t, info.Source)
	assert.Nil(t, info.Agent)
	assert.Equal(t, sdk.Version, info.Source.SDKVersion)
}

func TestExternalExamplePluginBadConfig(t *testing.T) {
	bin := examplePlugin(t)
	m, _ := newManager(t, plugin.Options{},
		plugin.Spec{Name: "events", Kind: plugin.KindSource, Ref: bin, Config: json.RawMessage(`{"tier":-1}`)})
	err := m.Fetch(context.Background(), "events", sdk.FetchRequest{}, collect(new([]sdk.Record)))
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
	assert.Contains(t, err.Error(), "plugin events ("+bin+") rejected its config: config.path: jsonl: config needs path")
	assert.Contains(t, err.Error(), "config.tier: Negative tier")
}
