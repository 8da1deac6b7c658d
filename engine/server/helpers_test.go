package server_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
// waits for it to close (or for its run to end); with gateCall set, the
// calls of that name (fetch, ground or describe) wait instead.
type fixtures struct {
	source   *file.Source
	agent    sdk.Agent
	gate     chan struct{}
	gateCall string
	fetched  chan struct{} // told of every call that waits on the gate
}

func newFixtures(t testing.TB) *fixtures {
	config, err := json.Marshal(map[string]string{"path": filepath.Join("..", "..", "examples", "data", "issues.jsonl")})
	require.NoError(t, err)
	src := file.New()
	_, err = src.Configure(context.Background(), config)
	require.NoError(t, err)
	return &fixtures{source: src, agent: template.New(), fetched: make(chan struct{}, 100)}
}

// wait holds a call named call while the gate is set for it, until the
// gate opens or ctx ends.
func (f *fixtures) wait(ctx context.Context, call string) error {
	if f.gate == nil || cmp.Or(f.gateCall, "fetch") != call {
		return nil
	}
	f.fetched <- struct{}{}
	select {
	case <-f.gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fixtures) Fetch(ctx context.Context, _ string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	if err := f.wait(ctx, "fetch"); err != nil {
		return err
	}
	return f.source.Fetch(ctx, req, emit)
}

func (f *fixtures) Ground(ctx context.Context, _ string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	if err := f.wait(ctx, "ground"); err != nil {
		return sdk.GroundResponse{}, err
	}
	return f.source.Ground(ctx, req)
}

func (f *fixtures) Describe(ctx context.Context, _ string) (sdk.SourceInfo, error) {
	if err := f.wait(ctx, "describe"); err != nil {
		return sdk.SourceInfo{}, err
	}
	return sdk.SourceInfo{Name: "fixtures"}, nil
}

func (f *fixtures) Invoke(ctx context.Context, _ string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	return f.agent.Invoke(ctx, req)
}

// defaultRules are the embedded defaults with an issue tracker configured
// (the fixtures serve it).
func defaultRules(t testing.TB) *rules.Ruleset {
	t.Setenv("YOUTRACK_TOKEN", "test-token")
	t.Setenv("YOUTRACK_URL", "https://youtrack.example.com")
	rs, diags := rules.LoadFS(examples.DefaultRules())
	require.False(t, diags.HasErrors(), diags.Error())
	return rs
}

// testServer is a server on 127.0.0.1 and its client.
type testServer struct {
	url    string
	client *http.Client
	token  string
	stop   func() error // shuts the server down, as SIGTERM does
}

// start serves p with cfg on a loopback port, on the default rules unless
// cfg names its snapshots.
func start(t testing.TB, p *fixtures, cfg server.Config) *testServer {
	t.Helper()
	if cfg.Snapshots == nil {
		cfg.Snapshots = server.Static(server.NewSnapshot(defaultRules(t), p, redact.New("test-token"), nil))
	}
	cfg.Clock = func() time.Time { return now }
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.New(cfg).Serve(ctx, ln) }()
	var once sync.Once
	var err2 error
	stop := func() error {
		once.Do(func() { cancel(); err2 = <-served })
		return err2
	}
	t.Cleanup(func() { _ = stop() })
	return &testServer{url: "http://" + ln.Addr().String(), client: &http.Client{}, token: cfg.Token, stop: stop}
}

// do sends a request with a JSON body (nil for none) and returns the
// response and its body.
func (s *testServer) do(t testing.TB, method, path string, body any, header ...string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		require.NoError(t, err)
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.url+path, r)
	require.NoError(t, err)
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, data
}

// event is one Server-Sent Event.
type event struct {
	Name, Data string
}

// parseEvents splits an event stream into its events.
func parseEvents(t testing.TB, stream []byte) []event {
	t.Helper()
	var out []event
	var cur event
	var data []string
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name != "" {
				cur.Data = strings.Join(data, "\n")
				out = append(out, cur)
			}
			cur, data = event{}, nil
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		}
	}
	require.NoError(t, sc.Err())
	return out
}
