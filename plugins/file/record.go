package file

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Record fields a column can fill. status, project and labels land in
// Fields under their own names, where the filters look for them.
var recordFields = []string{"id", "source", "kind", "title", "body", "url", "author", "time", "tier", "status", "project", "labels"}

// mapper turns decoded objects into records.
type mapper struct {
	column map[string]string // column name → record field
	mapping
}

// mapping is all that decides what a mapper makes of a row, comparable:
// the records kept of a file are keyed by it, as two mappers with the
// same mapping make the same records.
type mapping struct {
	columns string         // column, as "column\x00field\x00" pairs sorted by column
	source  string         // default Record.Source
	kind    string         // default Record.Kind
	loc     *time.Location // zone of times written without one
}

// recordFunc receives each row's record with the line it starts on.
type recordFunc func(line int, rec sdk.Record) error

func newMapper(cfg config, loc *time.Location) mapper {
	m := mapper{column: make(map[string]string), mapping: mapping{source: cfg.Source, kind: cfg.Kind, loc: loc}}
	mapped := make(map[string]bool)
	for field, col := range cfg.Fields {
		m.column[col] = field
		mapped[field] = true
	}
	// A field not remapped reads the column of its own name, unless that
	// column already feeds another field.
	for _, f := range recordFields {
		if _, taken := m.column[f]; !mapped[f] && !taken {
			m.column[f] = f
		}
	}
	cols := make([]string, 0, len(m.column))
	for col := range m.column {
		cols = append(cols, col)
	}
	sort.Strings(cols)
	var b strings.Builder
	for _, col := range cols {
		b.WriteString(col + "\x00" + m.column[col] + "\x00")
	}
	m.columns = b.String()
	return m
}

// clone is rec with its own Fields and their string lists, for a caller
// that may change what it is given while rec stays kept.
func clone(rec sdk.Record) sdk.Record {
	if rec.Fields == nil {
		return rec
	}
	fields := make(map[string]any, len(rec.Fields))
	for k, v := range rec.Fields {
		if l, ok := v.([]string); ok {
			v = slices.Clone(l)
		}
		fields[k] = v
	}
	rec.Fields = fields
	return rec
}

// record converts obj, read from the file name at line, into a Record. A
// value of the wrong type is an error naming the file, line and column.
// A row without an id gets "BASE:LINE", BASE being the file's base name.
func (m mapper) record(name string, line int, obj map[string]any) (sdk.Record, error) {
	rec := sdk.Record{Source: m.source, Kind: m.kind}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic errors when several values are bad
	for _, key := range keys {
		v := obj[key]
		if v == nil {
			continue
		}
		field, known := m.column[key]
		if !known {
			if rec.Fields == nil {
				rec.Fields = make(map[string]any)
			}
			rec.Fields[key] = extraValue(v)
			continue
		}
		if err := m.set(&rec, field, v); err != nil {
			return sdk.Record{}, decodeError(name, line, "column %q: %v", key, err)
		}
	}
	if rec.ID == "" {
		rec.ID = fmt.Sprintf("%s:%d", path.Base(filepath.ToSlash(name)), line)
	}
	return rec, nil
}

// set stores v into the record field named field.
func (m mapper) set(rec *sdk.Record, field string, v any) error {
	switch field {
	case "time":
		t, err := m.parseTime(v)
		if err != nil {
			return err
		}
		rec.Time = t
		return nil
	case "tier":
		n, err := parseTier(v)
		if err != nil {
			return err
		}
		rec.Tier = n
		return nil
	case "labels":
		labels, err := parseLabels(v)
		if err != nil {
			return err
		}
		setField(rec, "labels", labels)
		return nil
	}
	s, ok := scalarString(v)
	if !ok {
		return fmt.Errorf("want a string, got %s", describe(v))
	}
	switch field {
	case "id":
		rec.ID = s
	case "source":
		rec.Source = s
	case "kind":
		rec.Kind = s
	case "title":
		rec.Title = s
	case "body":
		rec.Body = s
	case "url":
		rec.URL = s
	case "author":
		rec.Author = s
	case "status", "project":
		setField(rec, field, s)
	}
	return nil
}

func setField(rec *sdk.Record, key string, v any) {
	if rec.Fields == nil {
		rec.Fields = make(map[string]any)
	}
	rec.Fields[key] = v
}

// scalarString renders a string, number or boolean as text.
func scalarString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}

// timeLayouts are the accepted time formats, tried in order. Layouts
// without a zone are read in the source's location.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", time.DateOnly}

// parseTime reads RFC 3339, a date, or Unix seconds (milliseconds when the
// number is too large to be seconds).
func (m mapper) parseTime(v any) (time.Time, error) {
	switch v := v.(type) {
	case string:
		s := strings.TrimSpace(v)
		for _, layout := range timeLayouts {
			if t, err := time.ParseInLocation(layout, s, m.loc); err == nil {
				return t, nil
			}
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return epoch(n)
		}
		return time.Time{}, fmt.Errorf("want an RFC 3339 time or a YYYY-MM-DD date, got %q", v)
	case json.Number:
		n, err := v.Int64()
		if err != nil {
			return time.Time{}, fmt.Errorf("want whole Unix seconds or milliseconds, got %s", v)
		}
		return epoch(n)
	}
	return time.Time{}, fmt.Errorf("want an RFC 3339 time or a YYYY-MM-DD date, got %s", describe(v))
}

// epoch reads Unix seconds, or milliseconds from 1e12 on (after 2001 in ms,
// year 33658 in seconds).
func epoch(n int64) (time.Time, error) {
	const msFrom = 1_000_000_000_000
	switch {
	case n < 0 || n > math.MaxInt64/1000:
		return time.Time{}, fmt.Errorf("want a Unix time, got %d", n)
	case n >= msFrom:
		return time.UnixMilli(n).UTC(), nil
	}
	return time.Unix(n, 0).UTC(), nil
}

// parseTier reads a non-negative integer tier.
func parseTier(v any) (int, error) {
	s, ok := scalarString(v)
	if !ok {
		return 0, fmt.Errorf("want an integer tier, got %s", describe(v))
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > 1000 {
		return 0, fmt.Errorf("want an integer tier from 0 (unknown) up, got %q", s)
	}
	return n, nil
}

// parseLabels reads an array of strings, or one string of labels
// separated by commas or semicolons (the CSV form).
func parseLabels(v any) ([]string, error) {
	switch v := v.(type) {
	case string:
		parts := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' })
		out := make([]string, 0, len(parts))
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, nil
	case []any:
		out := make([]string, 0, len(v))
		for i, e := range v {
			s, ok := scalarString(e)
			if !ok {
				return nil, fmt.Errorf("want an array of strings, element %d is %s", i, describe(e))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want an array of strings, got %s", describe(v))
}

// extraValue converts a column that is no Record field into a typed Fields
// value: strings, int64, float64, bool and []string stay typed; other
// arrays and objects keep their JSON text, so nothing is lost.
func extraValue(v any) any {
	switch v := v.(type) {
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v.String()
	case string, bool:
		return v
	case []any:
		strs := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				b, _ := json.Marshal(v)
				return string(b)
			}
			strs = append(strs, s)
		}
		return strs
	}
	b, _ := json.Marshal(v)
	return string(b)
}
