package file

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/require"
)

// benchRows is the number of records in each benchmark file.
const benchRows = 10000

// writeBenchFile writes benchRows issue-like records in format.
func writeBenchFile(b *testing.B, format string) string {
	b.Helper()
	var sb strings.Builder
	if format == FormatCSV {
		sb.WriteString("id,project,title,body,status,author,time,labels,priority\n")
	}
	if format == FormatJSON {
		sb.WriteString("[\n")
	}
	statuses := []string{"open", "in-progress", "resolved", "closed"}
	for i := range benchRows {
		id, title := fmt.Sprintf("PAY-%d", i), fmt.Sprintf("Refund %d fails after gateway timeout", i)
		body := "The refund stays pending when the gateway times out; the reconciliation job never retries it."
		ts := fmt.Sprintf("2026-%02d-%02dT%02d:00:00Z", 1+i%12, 1+i%28, i%24)
		if format == FormatCSV {
			fmt.Fprintf(&sb, "%s,PAY,%s,\"%s\",%s,Alice Chen,%s,refunds;gateway,Major\n", id, title, body, statuses[i%4], ts)
			continue
		}
		line, _ := json.Marshal(map[string]any{"id": id, "project": "PAY", "title": title, "body": body, "status": statuses[i%4],
			"author": "Alice Chen", "time": ts, "labels": []string{"refunds", "gateway"}, "priority": "Major"})
		if format == FormatJSON && i > 0 {
			sb.WriteString(",\n")
		}
		sb.Write(line)
		if format != FormatJSON {
			sb.WriteByte('\n')
		}
	}
	if format == FormatJSON {
		sb.WriteString("\n]\n")
	}
	p := filepath.Join(b.TempDir(), "bench."+format)
	require.NoError(b, os.WriteFile(p, []byte(sb.String()), 0o644))
	return p
}

// benchFetch fetches every record of a file in format: decoding it each
// time, or, warm, from the rows the source keeps of an unchanged file.
func benchFetch(b *testing.B, format string, warm bool) {
	s := New()
	raw, _ := json.Marshal(map[string]string{"path": writeBenchFile(b, format)})
	diags, err := s.Configure(context.Background(), raw)
	require.NoError(b, err)
	require.False(b, diags.HasErrors())
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = 0
		if !warm {
			s.rows.forget()
		}
		err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { n++; return nil })
		require.NoError(b, err)
	}
	require.Equal(b, benchRows, n)
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkFetchJSONL decodes a 10,000-record JSON-lines file.
func BenchmarkFetchJSONL(b *testing.B) { benchFetch(b, FormatJSONL, false) }

// BenchmarkFetchJSONLWarm fetches the same file unchanged: it is read and
// hashed, its rows are kept and only mapped to records.
func BenchmarkFetchJSONLWarm(b *testing.B) { benchFetch(b, FormatJSONL, true) }

// BenchmarkFetchJSON decodes a 10,000-record JSON array.
func BenchmarkFetchJSON(b *testing.B) { benchFetch(b, FormatJSON, false) }

// BenchmarkFetchCSV decodes a 10,000-record CSV file.
func BenchmarkFetchCSV(b *testing.B) { benchFetch(b, FormatCSV, false) }

// BenchmarkSmallFile fetches and grounds a file of two rows, as a warm
// plugin answers each question: the cost of checking, opening and
// hashing the file, not of decoding it.
func BenchmarkSmallFile(b *testing.B) {
	p := filepath.Join(b.TempDir(), "issues.jsonl")
	require.NoError(b, os.WriteFile(p, []byte(`{"id":"PAY-1","project":"PAY","title":"Refund stuck","status":"open","author":"Bob Lin","time":"2026-11-04T09:00:00Z"}
{"id":"PAY-2","project":"PAY","title":"Fix rounding","status":"closed","author":"Ann Wu","time":"2026-11-05T09:00:00Z"}
`), 0o644))
	s := New()
	raw, _ := json.Marshal(map[string]string{"path": p})
	diags, err := s.Configure(context.Background(), raw)
	require.NoError(b, err)
	require.False(b, diags.HasErrors())
	b.Run("fetch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			n := 0
			err := s.Fetch(context.Background(), sdk.FetchRequest{Filters: map[string][]string{"statuses": {"open"}}}, func(sdk.Record) error { n++; return nil })
			if err != nil || n != 1 {
				b.Fatal(err, n)
			}
		}
	})
	b.Run("ground", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Ground(context.Background(), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermState, Value: "open"}}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
