package runner

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/sdk"
)

// BenchmarkCommitChainValidator is BenchmarkCommitChainFakes with a
// validator judging every step valid: the evaluate phase's own cost (the
// input built, the call, the verdicts turned into findings) is the
// difference.
func BenchmarkCommitChainValidator(b *testing.B) {
	rs := loadRules(b, retrievalCheck+validatorRules)
	plan := commitChain(rs, "discovery")
	agents := judging(func(_ int, in sdk.ValidatorInput) (string, error) { return every(in, sdk.VerdictValid, nil), nil })
	ex := New(gitSource(commits(20)), agents, Options{Clock: fixedClock})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		agents.calls = agents.calls[:0] // the fake records every request
		if _, err := ex.Run(ctx, plan); err != nil {
			b.Fatal(err)
		}
	}
}
