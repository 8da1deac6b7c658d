package file

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Formats the source reads.
const (
	FormatJSON  = "json"  // an array of objects, or objects one after another
	FormatJSONL = "jsonl" // one object per line
	FormatCSV   = "csv"   // a header row, then one record per row
)

// maxLine bounds one JSON line or CSV row, so a file without newlines
// cannot exhaust memory.
const maxLine = 16 << 20

// rowFunc receives each decoded object with the line it starts on.
type rowFunc func(line int, obj map[string]any) error

// decodeError is a malformed row: file:line and what was expected.
func decodeError(name string, line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
}

// decodeJSONLines reads one JSON object per line; blank lines are skipped.
func decodeJSONLines(name string, r io.Reader, fn rowFunc) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for line := 1; ; line++ {
		chunk, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it, within maxLine.
			long = append(long[:0], chunk...)
			for errors.Is(err, bufio.ErrBufferFull) && len(long) <= maxLine {
				chunk, err = br.ReadSlice('\n')
				long = append(long, chunk...)
			}
			if len(long) > maxLine {
				return decodeError(name, line, "line longer than %d bytes; want one JSON object per line", maxLine)
			}
			chunk = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if text := bytes.TrimSpace(chunk); len(text) > 0 {
			if line == 1 {
				text = bytes.TrimPrefix(text, utf8BOM)
			}
			obj, derr := decodeObject(text)
			if derr != nil {
				return decodeError(name, line, "%v", derr)
			}
			if ferr := fn(line, obj); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}

var utf8BOM = []byte("\xef\xbb\xbf")

// decodeObject decodes one JSON object, numbers kept as json.Number.
func decodeObject(text []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonProblem(err, text)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %s", describe(v))
	}
	if dec.More() {
		return nil, fmt.Errorf("want one JSON object per line, found more after column %d", dec.InputOffset())
	}
	return obj, nil
}

// decodeJSON reads a JSON array of objects, or objects one after another.
// The file is read whole: line numbers need the bytes before each object.
func decodeJSON(name string, r io.Reader, fn rowFunc) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	lines := lineCounter{data: data, line: 1}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	start := skipSpace(data, 0)
	if start == len(data) {
		return nil
	}
	inArray := data[start] == '['
	if inArray {
		if _, err := dec.Token(); err != nil {
			return decodeError(name, lines.at(start), "%v", jsonProblem(err, data))
		}
	}
	for {
		if inArray && !dec.More() {
			break
		}
		begin := skipSpace(data, int(dec.InputOffset()))
		if !inArray && begin == len(data) {
			return nil
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return decodeError(name, lines.at(errorOffset(err, begin, len(data))), "%v", jsonProblem(err, data))
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return decodeError(name, lines.at(begin), "want a JSON object, got %s", describe(v))
		}
		if err := fn(lines.at(begin), obj); err != nil {
			return err
		}
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != nil {
		return decodeError(name, lines.at(errorOffset(err, end, len(data))), "want ] closing the array: %v", jsonProblem(err, data))
	}
	if rest := skipSpace(data, int(dec.InputOffset())); rest < len(data) {
		return decodeError(name, lines.at(rest), "want the end of the file after the array, got %q", clip(data[rest:]))
	}
	return nil
}

// skipSpace returns the offset of the first byte at or after i that is
// not JSON whitespace or an array comma.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n', ',':
			i++
		default:
			return i
		}
	}
	return i
}

// errorOffset is where a JSON error happened: the syntax error's offset,
// the end for input that ends early, or else the value's start.
func errorOffset(err error, begin, size int) int {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se) && se.Offset > 0 && int(se.Offset) <= size:
		return int(se.Offset) - 1
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return size
	}
	return begin
}

// lineCounter maps increasing byte offsets to 1-based line numbers.
type lineCounter struct {
	data []byte
	off  int
	line int
}

func (c *lineCounter) at(off int) int {
	off = min(max(off, 0), len(c.data))
	if off < c.off {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}

// jsonProblem words a JSON decoding error for a person.
func jsonProblem(err error, data []byte) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("want a complete JSON object, the input ends early")
	case errors.As(err, &se):
		return fmt.Errorf("want valid JSON: %v", se)
	case errors.As(err, &te):
		return fmt.Errorf("want a JSON object: %v", te)
	}
	return fmt.Errorf("want valid JSON: %v", err)
}

// describe names a decoded JSON value's type.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

func clip(b []byte) string {
	if len(b) > 20 {
		return string(b[:20]) + "…"
	}
	return string(b)
}

// decodeCSV reads a header row, then one record per row; every row must
// have as many columns as the header.
func decodeCSV(name string, r io.Reader, fn rowFunc) error {
	cr := csv.NewReader(bufio.NewReaderSize(r, 64<<10))
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return csvError(name, err)
	}
	columns := make([]string, len(header))
	seen := make(map[string]bool, len(header))
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, string(utf8BOM)))
		if h == "" {
			return decodeError(name, 1, "header column %d is empty; want a name for every column", i+1)
		}
		if seen[h] {
			return decodeError(name, 1, "header column %q appears twice", h)
		}
		seen[h] = true
		columns[i] = h
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) > maxLine/64 {
			return decodeError(name, line, "too many columns")
		}
		obj := make(map[string]any, len(rec))
		for i, v := range rec {
			if v != "" {
				obj[columns[i]] = v
			}
		}
		if err := fn(line, obj); err != nil {
			return err
		}
	}
}

// csvError names file:line of a CSV parse error and what was expected.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", name, err)
	}
	line := pe.Line
	if pe.StartLine > 0 && errors.Is(pe.Err, csv.ErrQuote) {
		line = pe.StartLine
	}
	switch {
	case errors.Is(pe.Err, csv.ErrFieldCount):
		return decodeError(name, pe.Line, "want as many columns as the header row: %v", pe.Err)
	case errors.Is(pe.Err, csv.ErrQuote), errors.Is(pe.Err, csv.ErrBareQuote):
		return decodeError(name, line, "column %d: want a correctly quoted CSV field: %v", pe.Column, pe.Err)
	}
	return decodeError(name, line, "%v", pe.Err)
}
