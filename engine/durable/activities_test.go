package durable

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

// streaming is a source that emits n records with bodies of size bytes
// each, random (so they do not compress) or repeated, then err.
type streaming struct {
	inProcess
	n, size int
	random  bool
	err     error
}

func (s *streaming) Fetch(_ context.Context, _ string, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	for i := range s.n {
		body := make([]byte, s.size)
		if s.random {
			_, _ = rand.Read(body)
		}
		if err := emit(sdk.Record{ID: fmt.Sprintf("r%d", i), Kind: sdk.KindCommit, Body: hex.EncodeToString(body)[:s.size], Fields: map[string]any{"token": "s3cr3t-token"}}); err != nil {
			return err
		}
	}
	return s.err
}

func TestFetchFitsInAPayload(t *testing.T) {
	for _, tt := range []struct {
		name     string
		src      *streaming
		wantAll  bool
		wantCut  string
		wantKind string
	}{
		{"small answers whole", &streaming{n: 50, size: 200, random: true}, true, "", ""},
		{"large but compressible answers whole", &streaming{n: 4000, size: 2000}, true, "", ""},
		{"incompressible is cut to fit", &streaming{n: 2000, size: 2000, random: true}, false, "the answer was cut after", "unknown"},
		{"a stream cut short keeps what arrived", &streaming{n: 10, size: 100, err: sdk.Errorf(sdk.KindUnavailable, "connection reset")}, true, "connection reset", "unavailable"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			acts := &Activities{Plugins: tt.src, Redactor: redact.New("s3cr3t-token")}
			out, err := acts.Fetch(context.Background(), FetchInput{Source: "git"})
			require.NoError(t, err)
			p, err := dataConverter.ToPayload(out)
			require.NoError(t, err)
			assert.LessOrEqual(t, proto.Size(p), maxPayload, "the payload fits")
			if tt.wantAll {
				assert.Len(t, out.Records, tt.src.n)
			} else {
				assert.NotEmpty(t, out.Records)
				assert.Less(t, len(out.Records), tt.src.n)
			}
			if tt.wantCut == "" {
				assert.Nil(t, out.Cut)
			} else {
				require.NotNil(t, out.Cut)
				assert.Contains(t, out.Cut.Message, tt.wantCut)
				assert.Equal(t, tt.wantKind, out.Cut.Kind)
			}
			for _, r := range out.Records {
				require.NotEqual(t, "s3cr3t-token", r.Fields["token"], "secrets are masked before they reach the history")
			}
		})
	}
}

func TestFetchFailureIsAnActivityErrorWithoutSecrets(t *testing.T) {
	src := &streaming{err: sdk.Errorf(sdk.KindUnauthorized, "token s3cr3t-token rejected")}
	acts := &Activities{Plugins: src, Redactor: redact.New("s3cr3t-token")}
	_, err := acts.Fetch(context.Background(), FetchInput{Source: "git"})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "s3cr3t-token")
	assert.Equal(t, sdk.KindUnauthorized, sdk.KindOf(pluginError("git", err)))
}

// bulky is the fixtures with a commit source whose records do not
// compress: their bodies are random.
type bulky struct {
	*inProcess
	n int
}

func (b *bulky) Fetch(ctx context.Context, name string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	if name != "gitlab" {
		return b.inProcess.Fetch(ctx, name, req, emit)
	}
	for i := range b.n {
		noise := make([]byte, 1000)
		_, _ = rand.Read(noise)
		if err := emit(sdk.Record{ID: fmt.Sprintf("c%04d", i), Source: "git", Kind: sdk.KindCommit, Title: "payments " + hex.EncodeToString(noise),
			Author: "Ada", Time: now.AddDate(0, 0, -1-i%15)}); err != nil {
			return err
		}
	}
	return nil
}

func TestOversizeReportIsLeftToReplay(t *testing.T) {
	p := &bulky{inProcess: newInProcess(t, gitRepo(t)), n: 1000}
	env := testEnv(t, defaultRules(t), p)
	in := commitsQuestion(t)
	in.Formats = []string{"json", "markdown", "text"}
	env.ExecuteWorkflow(WorkflowName, in)
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError(), "the run completes: its result fits")
	var out Output
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.Equal(t, "success", out.Status)
	assert.True(t, out.Oversize, "a thousand commits with random titles, rendered thrice, do not fit in a payload")
	assert.True(t, out.Reports == nil, "the renderings are left out")
	assert.True(t, len(out.Report) > 0, "the report's text still comes back")
}
