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

// rowFunc receives each decoded object with the line it starts on.
type rowFunc func(line int, obj map[string]any) error

// decodeError is a malformed row: file:line and what was expected.
func decodeError(name string, line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
}

// decodeJSONLines reads one JSON object per line; blank lines are skipped.
func decodeJSONLines(rr *rowReader, fn rowFunc) error {
	br := bufio.NewReaderSize(rr, 64<<10)
	var long []byte
	var off int64 // offset of the line being read
	for line := 1; ; line++ {
		rr.startRow(off)
		chunk, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it; rr stops it at the limit.
			long = append(long[:0], chunk...)
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = br.ReadSlice('\n')
				long = append(long, chunk...)
			}
			chunk = long
		}
		if ferr := rr.failure(line, off); ferr != nil {
			return ferr
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s:%d: %w", rr.name, line, err)
		}
		off += int64(len(chunk))
		if text := bytes.TrimSpace(chunk); len(text) > 0 {
			if line == 1 {
				text = bytes.TrimPrefix(text, utf8BOM)
			}
			obj, derr := decodeObject(text)
			if derr != nil {
				return decodeError(rr.name, line, "%v", derr)
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
		return nil, jsonProblem(err)
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

// decodeJSON streams a JSON array of objects, or objects one after
// another, one value in memory at a time.
func decodeJSON(rr *rowReader, fn rowFunc) error {
	in, shift, err := skipBOM(rr)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(in)
	dec.UseNumber()
	offset := func() int64 { return shift + dec.InputOffset() }
	first, ok := peek(dec, 1)
	if !ok {
		return rr.failure(rr.lineAt(offset()), offset())
	}
	inArray := first[0] == '['
	if inArray {
		if _, err := dec.Token(); err != nil { // the '[' peek saw
			return decodeError(rr.name, rr.lineAt(offset()), "%v", jsonProblem(err))
		}
	}
	for {
		off := offset()
		rr.startRow(off)
		if _, ok := peek(dec, 1); !ok {
			if ferr := rr.failure(rr.lineAt(off), off); ferr != nil || !inArray {
				return ferr
			}
			break // the end of the file, reported below
		}
		if inArray && !dec.More() {
			break
		}
		var v any
		err := dec.Decode(&v)
		begin := rr.valueStart(off)
		line := rr.lineAt(begin)
		if err != nil {
			if ferr := rr.failure(line, begin); ferr != nil {
				return ferr
			}
			return decodeError(rr.name, rr.lineAt(errorOffset(err, rr, begin)), "%v", jsonProblem(err))
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return decodeError(rr.name, line, "want a JSON object, got %s", describe(v))
		}
		if err := fn(line, obj); err != nil {
			return err
		}
	}
	end := offset()
	rr.startRow(end)
	if _, err := dec.Token(); err != nil {
		if ferr := rr.failure(rr.lineAt(end), end); ferr != nil {
			return ferr
		}
		return decodeError(rr.name, rr.lineAt(errorOffset(err, rr, end)), "want ] closing the array: %v", jsonProblem(err))
	}
	if rest, ok := peek(dec, 21); ok {
		return decodeError(rr.name, rr.lineAt(offset()), "want the end of the file after the array, got %q", clip(rest))
	}
	return rr.failure(rr.lineAt(offset()), offset())
}

// skipBOM reads past a UTF-8 byte order mark at the start of rr, which
// the JSON decoder would reject; shift is how far the reader it returns
// is ahead of offsets counted from its start.
func skipBOM(rr *rowReader) (io.Reader, int64, error) {
	head := make([]byte, len(utf8BOM))
	n, err := io.ReadFull(rr, head)
	switch {
	case bytes.Equal(head[:n], utf8BOM):
		return rr, int64(n), nil
	case err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		if ferr := rr.failure(1, 0); ferr != nil {
			return nil, 0, ferr
		}
		return nil, 0, fmt.Errorf("%s: %w", rr.name, err)
	}
	return io.MultiReader(bytes.NewReader(head[:n]), rr), 0, nil
}

// peek returns up to n of the decoder's buffered bytes from the next one
// that is not whitespace, reading more when needed; ok is false at the end
// of the input or when reading failed.
func peek(dec *json.Decoder, n int) ([]byte, bool) {
	dec.More() // reads past whitespace, if anything follows it; its answer is only about ] and }
	var buf [32]byte
	got, _ := dec.Buffered().Read(buf[:min(n, len(buf))])
	// No byte after whitespace: More found nothing and left the whitespace.
	return buf[:got], got > 0 && !isJSONSpace(buf[0])
}

// isJSONSpace reports whether c is JSON whitespace.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// errorOffset is where a JSON error in the value starting at begin
// happened: the end for input that ends early, else the offset a fresh
// decoder reports in the bytes kept from begin (the stream decoder's
// offsets leave out the separators it read as tokens).
func errorOffset(err error, rr *rowReader, begin int64) int64 {
	kept := rr.kept(begin)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return begin + int64(len(kept))
	}
	var v any
	var se *json.SyntaxError
	if errors.As(json.NewDecoder(bytes.NewReader(kept)).Decode(&v), &se) && se.Offset > 0 {
		return begin + se.Offset - 1
	}
	return begin
}

// jsonProblem words a JSON decoding error for a person.
func jsonProblem(err error) error {
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
func decodeCSV(rr *rowReader, fn rowFunc) error {
	cr := csv.NewReader(bufio.NewReaderSize(rr, 64<<10))
	cr.ReuseRecord = true
	header, err := cr.Read()
	if ferr := rr.failure(1, 0); ferr != nil {
		return ferr
	}
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return csvError(rr.name, err)
	}
	columns := make([]string, len(header))
	seen := make(map[string]bool, len(header))
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, string(utf8BOM)))
		if h == "" {
			return decodeError(rr.name, 1, "header column %d is empty; want a name for every column", i+1)
		}
		if seen[h] {
			return decodeError(rr.name, 1, "header column %q appears twice", h)
		}
		seen[h] = true
		columns[i] = h
	}
	for {
		off := cr.InputOffset()
		rr.startRow(off)
		rec, err := cr.Read()
		if ferr := rr.failure(rr.lineAt(off), off); ferr != nil {
			return ferr
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return csvError(rr.name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) > maxRow/64 {
			return decodeError(rr.name, line, "too many columns")
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
