package ask_test

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// severalJeffs grounds every author as the people a git history named
// "Jeff" holds, and counts fetches and descriptions: a question asked
// back fetches nothing and is not validated against the sources.
type severalJeffs struct {
	*inProcess
	fetches, describes int
}

func (s *severalJeffs) Describe(ctx context.Context, src string) (sdk.SourceInfo, error) {
	s.describes++
	return s.inProcess.Describe(ctx, src)
}

func (s *severalJeffs) Ground(ctx context.Context, src string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	resp, err := s.inProcess.Ground(ctx, src, req)
	for i, t := range req.Terms {
		if err == nil && t.Kind == sdk.TermAuthor {
			resp.Terms[i] = sdk.GroundedTerm{Kind: t.Kind, Value: t.Value, Known: true, Canonical: []string{"Jeff King", "Jeff Hostetler"}}
		}
	}
	return resp, err
}

func (s *severalJeffs) Fetch(ctx context.Context, src string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	s.fetches++
	return s.inProcess.Fetch(ctx, src, req, emit)
}

func TestAnswerAsksBack(t *testing.T) {
	for _, tt := range []struct {
		query        string
		wantType     string
		wantQuestion string
		wantOptions  []string
	}{
		{"please close it", engine.AmbiguityMissingEntity, `What should "please close it" act on? It names no targets.`, []string{}},
		{"what did Jeff change last week?", engine.AmbiguityMultipleMatches,
			`"Jeff" matches 2 people in ../../examples/data/issues.jsonl: which do you mean?`, []string{"Jeff King", "Jeff Hostetler"}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			p := &severalJeffs{inProcess: newInProcess(t)}
			svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now }})
			res, err := svc.Answer(context.Background(), p, ask.Request{Query: tt.query})
			require.NoError(t, err)
			assert.Equal(t, runner.ResultNeedsClarification, res.Status)
			require.NotNil(t, res.Ambiguity)
			assert.Equal(t, tt.wantType, res.Ambiguity.Type)
			require.NotNil(t, res.Clarification)
			assert.Equal(t, tt.wantQuestion, res.Clarification.Question)
			assert.Equal(t, tt.wantOptions, res.Clarification.Options)
			assert.Contains(t, res.Report, tt.wantQuestion)
			for _, o := range tt.wantOptions {
				assert.Contains(t, res.Report, o)
			}
			assert.Zero(t, p.fetches, "nothing else runs")
			assert.Zero(t, p.describes, "nor is it validated")
			assert.Empty(t, res.Steps)
			assert.Empty(t, res.Answers)
			assert.Equal(t, res.Ambiguity, ask.Turn(res, redact.New()).Asked, "a session keeps what was asked, for the answer to it")
		})
	}
}

func TestAnswerRunsWhatIsNotAmbiguous(t *testing.T) {
	p := &severalJeffs{inProcess: newInProcess(t)}
	svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now }})
	res, err := svc.Answer(context.Background(), p, ask.Request{Query: "please close PAY-101"})
	require.NoError(t, err)
	assert.NotEqual(t, runner.ResultNeedsClarification, res.Status)
	assert.NotZero(t, p.fetches+p.describes+p.calls, "it ran")
	assert.Nil(t, res.Clarification)
	assert.NotEmpty(t, res.Steps)
}

// A clarification agent that cannot answer leaves nous's own question,
// with the candidates as options, and says why.
func TestAnswerAsksBackWithoutTheAgent(t *testing.T) {
	p := &severalJeffs{inProcess: newInProcess(t)}
	p.down = map[string]bool{"clarification": true}
	svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now }})
	res, err := svc.Answer(context.Background(), p, ask.Request{Query: "what did Jeff change last week?"})
	require.NoError(t, err)
	assert.Equal(t, runner.ResultNeedsClarification, res.Status)
	assert.Equal(t, `The question is ambiguous: "Jeff" matches 2 people in ../../examples/data/issues.jsonl. Which do you mean?`, res.Clarification.Question)
	assert.Equal(t, []string{"Jeff King", "Jeff Hostetler"}, res.Clarification.Options)
	require.NotEmpty(t, res.Caveats)
	assert.Contains(t, res.Caveats[0], "The clarification agent failed")
}
