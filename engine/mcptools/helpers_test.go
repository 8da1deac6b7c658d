package mcptools_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine/mcptools"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/plugins/file"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/require"
)

var now = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// fixtures serves every source from the issue fixtures and every agent
// with the template plugin, in-process. While gate is set, every fetch
// waits for it to close (or for its run to end).
type fixtures struct {
	source  *file.Source
	agent   sdk.Agent
	gate    chan struct{}
	fetched chan struct{} // told of every fetch that waits on the gate
}

func newFixtures(t testing.TB) *fixtures {
	config, err := json.Marshal(map[string]string{"path": filepath.Join("..", "..", "examples", "data", "issues.jsonl")})
	require.NoError(t, err)
	src := file.New()
	_, err = src.Configure(context.Background(), config)
	require.NoError(t, err)
	return &fixtures{source: src, agent: template.New(), fetched: make(chan struct{}, 100)}
}

func (f *fixtures) Fetch(ctx context.Context, _ string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	if f.gate != nil {
		f.fetched <- struct{}{}
		select {
		case <-f.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return f.source.Fetch(ctx, req, emit)
}

func (f *fixtures) Ground(ctx context.Context, _ string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	return f.source.Ground(ctx, req)
}

func (f *fixtures) Describe(context.Context, string) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{Name: "fixtures"}, nil
}

func (f *fixtures) Invoke(ctx context.Context, _ string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	return f.agent.Invoke(ctx, req)
}

// newService is the service over the default rules (with an issue tracker
// configured, which the fixtures serve) and p.
func newService(t testing.TB, p *fixtures) *server.Server {
	t.Setenv("YOUTRACK_TOKEN", "test-token")
	t.Setenv("YOUTRACK_URL", "https://youtrack.example.com")
	rs, diags := rules.LoadFS(examples.DefaultRules())
	require.False(t, diags.HasErrors(), diags.Error())
	return server.New(server.Config{
		Snapshots: server.Static(server.NewSnapshot(rs, p, redact.New("test-token"), nil)),
		Clock:     func() time.Time { return now },
	})
}

// progressLog collects the progress notifications a client receives.
type progressLog struct {
	mu   sync.Mutex
	msgs []string
	last float64
	ok   bool // every notification counted up
}

func (l *progressLog) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.msgs) == 0 {
		l.ok = true
	}
	l.ok = l.ok && req.Params.Progress > l.last
	l.last = req.Params.Progress
	l.msgs = append(l.msgs, req.Params.Message)
}

func (l *progressLog) messages() ([]string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.msgs...), l.ok
}

// connect is a client session with the MCP server of srv over an
// in-memory transport.
func connect(t testing.TB, srv *server.Server, progress *progressLog) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptools.New(srv, mcptools.Options{Version: "test", Now: func() time.Time { return now }}).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	opts := &mcp.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = progress.handle
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "test"}, opts).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls tool with args and returns its result.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	return res
}

// textOf is the text content of res.
func textOf(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		require.True(t, ok, "content %T", c)
		parts = append(parts, tc.Text)
	}
	return strings.Join(parts, "\n")
}

// structured decodes res's structured content into v.
func structured(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v))
}
