package file

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// fuzzDecode runs a decoder and the record mapping over arbitrary input:
// it must never panic, and every error must name the file.
func fuzzDecode(t *testing.T, decode func(*rowReader, rowFunc) error, data []byte) {
	m := newMapper(config{Kind: "document", Source: "file"}, time.UTC)
	// A small row limit, so the fuzzer reaches it too.
	rr := newRowReader(context.Background(), "fuzz.in", bytes.NewReader(data), 64, true)
	err := decode(rr, func(line int, obj map[string]any) error {
		if line < 1 {
			t.Fatalf("line %d is not 1-based", line)
		}
		_, err := m.record("fuzz.in", line, obj)
		return err
	})
	if err != nil && !strings.HasPrefix(err.Error(), "fuzz.in") {
		t.Fatalf("error does not name the file: %v", err)
	}
}

func seeds(f *testing.F, extra ...string) {
	for _, s := range append([]string{
		`{"id":"1","title":"a","time":"2024-01-02","labels":["x"],"tier":2}` + "\n",
		`[{"id":"1"},{"id":"2","meta":{"a":[1,2]}}]`,
		"id,title,time\n1,a,2024-01-02\n2,\"b, c\",2024-01-03T10:00:00Z\n",
		"", "\n\n", "[", "{", `{"time":1700000000000}`, "\xef\xbb\xbfid\n1\n",
	}, extra...) {
		f.Add([]byte(s))
	}
}

func FuzzJSONLines(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, decodeJSONLines, data)
	})
}

func FuzzJSON(f *testing.F) {
	seeds(f, "[\n{\"id\":1},\n2]", "{\"a\":1}{\"b\":2}")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, decodeJSON, data)
	})
}

func FuzzCSV(f *testing.F) {
	seeds(f, "a,b\n1\n", "a,\"b\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, decodeCSV, data)
	})
}
