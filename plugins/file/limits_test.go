package file

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hugeSize is the size of the oversized inputs: far past the row limit,
// generated as it is read so no test writes it anywhere.
const hugeSize = 100 << 20

// repeat is an endless reader of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// counting counts the bytes read through it.
type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// huge is prefix, hugeSize bytes of filler, then suffix.
func huge(prefix string, filler byte, suffix string) *counting {
	return &counting{r: io.MultiReader(strings.NewReader(prefix), io.LimitReader(repeat(filler), hugeSize), strings.NewReader(suffix))}
}

// TestRowLimit feeds each decoder a row far over the limit: the decoder
// stops soon after the limit, with an error naming the file, where the
// row starts and the limit, and reads no more than the limit and a buffer.
func TestRowLimit(t *testing.T) {
	limit := fmt.Sprint(maxRow)
	tests := []struct {
		name   string
		decode func(*rowReader, rowFunc) error
		input  *counting
		want   []string
	}{
		{"jsonl line", decodeJSONLines, huge(`{"id":"1"}`+"\n"+`{"body":"`, 'a', `"}`+"\n"), []string{"big.in:2", limit}},
		{"json array element", decodeJSON, huge("[\n"+`{"id":"1"},`+"\n"+`{"body":"`, 'a', `"}]`), []string{"big.in:3", "offset 14", limit}},
		{"json object stream", decodeJSON, huge(`{"id":"1"}`+"\n\n"+`{"body":"`, 'a', `"}`), []string{"big.in:3", "offset 12", limit}},
		{"json whitespace", decodeJSON, huge("[\n", ' ', "]"), []string{"big.in:1", "offset 1", limit}},
		{"csv record", decodeCSV, huge("id,body\n1,\"", 'a', "\"\n"), []string{"big.in:2", limit}},
		{"csv line without newline", decodeCSV, huge("id,body\n1,", 'a', "\n"), []string{"big.in:2", limit}},
		{"csv header", decodeCSV, huge("id,", 'b', "\n1,2\n"), []string{"big.in:1", limit}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := 0
			err := tt.decode(newRowReader(context.Background(), "big.in", tt.input, maxRow, true), func(int, map[string]any) error { rows++; return nil })
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.LessOrEqual(t, tt.input.n, int64(maxRow+1<<20), "read %d bytes", tt.input.n)
			assert.LessOrEqual(t, rows, 1)
		})
	}
}

// TestRowsUnderLimit checks that rows just under the limit still decode
// in every format, with the lines they start on.
func TestRowsUnderLimit(t *testing.T) {
	body := strings.Repeat("x", maxRow-100)
	tests := []struct {
		name   string
		decode func(*rowReader, rowFunc) error
		input  string
		lines  []int
	}{
		{"jsonl", decodeJSONLines, `{"id":"1"}` + "\n" + `{"body":"` + body + `"}` + "\n" + `{"id":"3"}`, []int{1, 2, 3}},
		{"json", decodeJSON, "[\n" + `{"id":"1"},` + "\n" + `{"body":"` + body + `"},` + "\n" + `{"id":"3"}]`, []int{2, 3, 4}},
		{"csv", decodeCSV, "id,body\n1,x\n2," + body + "\n3,\"a\nb\"\n4,y\n", []int{2, 3, 4, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lines []int
			err := tt.decode(newRowReader(context.Background(), "ok.in", bytes.NewReader([]byte(tt.input)), maxRow, true), func(line int, _ map[string]any) error {
				lines = append(lines, line)
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, tt.lines, lines)
		})
	}
}
