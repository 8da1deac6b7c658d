package template

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nous-dev/nous/sdk"
)

// BenchmarkAnalystCriticWriter is one full template pass over 50 and 220
// records (the cold benchmark's week of commits): research, review,
// compose, through the sdk.Agent interface.
func BenchmarkAnalystCriticWriter(b *testing.B) {
	for _, n := range []int{50, 220} {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) { benchAnalystCriticWriter(b, n) })
	}
}

func benchAnalystCriticWriter(b *testing.B, n int) {
	a := New()
	ctx := context.Background()
	records := manyRecords(n)
	in, _ := json.Marshal(sdk.AnalystInput{Query: "what changed last week?", Mode: "discovery"})
	b.ReportAllocs()
	for b.Loop() {
		resp, err := a.Invoke(ctx, sdk.InvokeRequest{Role: sdk.RoleAnalyst, Input: in, Context: records})
		if err != nil {
			b.Fatal(err)
		}
		var draft sdk.AnalystOutput
		if err := json.Unmarshal(resp.Output, &draft); err != nil {
			b.Fatal(err)
		}
		cin, _ := json.Marshal(sdk.CriticInput{Draft: draft.Draft, Mode: "discovery"})
		resp, err = a.Invoke(ctx, sdk.InvokeRequest{Role: sdk.RoleCritic, Input: cin, Context: records})
		if err != nil {
			b.Fatal(err)
		}
		var rv sdk.CriticOutput
		if err := json.Unmarshal(resp.Output, &rv); err != nil {
			b.Fatal(err)
		}
		win, _ := json.Marshal(sdk.WriterInput{Draft: draft.Draft, Review: &rv, Mode: "discovery"})
		if _, err := a.Invoke(ctx, sdk.InvokeRequest{Role: sdk.RoleWriter, Input: win, Context: records}); err != nil {
			b.Fatal(err)
		}
	}
}
