package openai

import (
	"context"
	"testing"
)

// BenchmarkInvoke is one role call against the local fake, non-streamed and
// streamed (the answer in 5-character chunks): request encoding, HTTP round
// trip, response decoding or SSE reassembly.
func BenchmarkInvoke(b *testing.B) {
	for _, bc := range []struct {
		name   string
		config string
		reply  fakeReply
	}{
		{"non-streamed", `{"stream":false}`, fakeReply{body: completionBody("m", criticAnswer, "stop", 800, 60)}},
		{"streamed", `{"stream":true}`, fakeReply{events: streamEvents("m", split(criticAnswer, 5), "stop", true, 800, 60)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := newFake(b, bc.reply)
			a := newTestAgent(b, f, bc.config)
			req := criticRequest()
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.Invoke(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
