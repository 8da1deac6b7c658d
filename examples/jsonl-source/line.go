package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// decodeLine turns one JSON object into a record. The well-known keys (id,
// kind, title, body, url, author and the time field) fill the record; every
// other key becomes a typed extra field, so nothing in the line is lost.
// defaultID names records that carry no id.
func decodeLine(line []byte, cfg Config, defaultID string) (sdk.Record, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return sdk.Record{}, fmt.Errorf("invalid JSON: %w", err)
	}
	if obj == nil {
		return sdk.Record{}, fmt.Errorf("want a JSON object, got null")
	}
	if rest := bytes.TrimSpace(line[dec.InputOffset():]); len(rest) > 0 {
		return sdk.Record{}, fmt.Errorf("unexpected text after the object: %.20q", rest)
	}
	r := sdk.Record{ID: defaultID, Kind: sdk.KindDocument, Source: cfg.Source, Tier: cfg.Tier}
	text := map[string]*string{"id": &r.ID, "kind": &r.Kind, "title": &r.Title, "body": &r.Body, "url": &r.URL, "author": &r.Author}
	for key, v := range obj {
		if v == nil {
			continue // null is the same as absent
		}
		if dst, ok := text[key]; ok {
			s, ok := v.(string)
			if !ok {
				return sdk.Record{}, fmt.Errorf("key %q: want a string, got %s", key, jsonType(v))
			}
			*dst = s
			continue
		}
		if key == cfg.TimeField {
			t, err := parseTime(v)
			if err != nil {
				return sdk.Record{}, fmt.Errorf("key %q: %w", key, err)
			}
			r.Time = t
			continue
		}
		if r.Fields == nil {
			r.Fields = make(map[string]any)
		}
		r.Fields[key] = fieldValue(v)
	}
	return r, nil
}

// parseTime reads an RFC 3339 time or a plain date (taken as UTC midnight).
func parseTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("want an RFC 3339 time such as \"2026-05-01T12:00:00Z\", got %s", jsonType(v))
	}
	for _, layout := range []string{time.RFC3339Nano, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("want an RFC 3339 time such as \"2026-05-01T12:00:00Z\" or a date such as \"2026-05-01\", got %q", s)
}

// fieldValue maps a JSON value to a record field type: string, int64,
// float64, bool or []string. Objects and mixed arrays keep their JSON text.
func fieldValue(v any) any {
	switch v := v.(type) {
	case string, bool:
		return v
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v.String()
	case []any:
		ss := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return compactJSON(v)
			}
			ss = append(ss, s)
		}
		return ss
	default:
		return compactJSON(v)
	}
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
