package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nous-dev/nous/sdk"
)

// maxShown bounds how much of a bad value a diagnostic repeats.
const maxShown = 80

// Decode decodes raw, a plugin's config map as JSON, into the struct dst
// points to, key by key, and says what is wrong with each key. Every
// summary starts with plugin; a diagnostic's Path is its key ("fields.title"
// inside a nested struct).
//
// An empty raw or null is an empty map. A key that is null or "" counts as
// unset: the field keeps the value it had (a default the plugin set, or one
// from the environment; in the rules, env("UNSET") gives ""), and a field
// still zero takes its default tag. An unknown key is a warning naming the
// known ones; a value that does not decode, and a required key left unset,
// are errors. A raw that is not a JSON object is an error, and ok is false:
// there is nothing more to check.
func Decode(plugin string, raw json.RawMessage, dst any) (diags sdk.Diagnostics, ok bool) {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return sdk.Diagnostics{Error("", fmt.Sprintf("%s: config.Decode wants a pointer to a struct, got %T", plugin, dst), "")}, false
	}
	var values map[string]json.RawMessage
	if raw = bytes.TrimSpace(raw); len(raw) > 0 && !isNull(raw) {
		if err := json.Unmarshal(raw, &values); err != nil {
			return sdk.Diagnostics{Error("", plugin+": config is not a JSON object", err.Error())}, false
		}
	}
	d := decoder{plugin: plugin}
	d.object("", values, v.Elem())
	return d.diags, true
}

// Error is an error diagnostic at key, for a plugin's own checks after Decode.
func Error(key, summary, detail string) sdk.Diagnostic {
	return sdk.Diagnostic{Severity: sdk.SeverityError, Path: key, Summary: summary, Detail: detail}
}

// decoder collects the diagnostics of one Decode.
type decoder struct {
	plugin string
	diags  sdk.Diagnostics
}

// object decodes values into struct v, whose keys sit under prefix.
func (d *decoder) object(prefix string, values map[string]json.RawMessage, v reflect.Value) {
	fs := fields(v.Type())
	var failed []string
	for _, key := range slices.Sorted(maps.Keys(values)) {
		i := slices.IndexFunc(fs, func(f field) bool { return f.key == key })
		if i < 0 {
			d.diags = append(d.diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Path: prefix + key,
				Summary: fmt.Sprintf("%s: unknown config key %q is ignored", d.plugin, prefix+key),
				Detail:  "known keys: " + knownKeys(fs)})
			continue
		}
		f, value := fs[i], values[key]
		if isNull(value) || string(value) == `""` {
			continue
		}
		fv := v.Field(f.index)
		var err error
		if nested(f.typ) {
			var sub map[string]json.RawMessage
			if err = json.Unmarshal(value, &sub); err == nil {
				d.object(prefix+key+".", sub, fv)
			}
		} else {
			err = decodeInto(fv, value)
		}
		if err != nil {
			failed = append(failed, key)
			d.diags = append(d.diags, Error(prefix+key, d.plugin+": config "+prefix+key+": "+f.problem(value, err), ""))
		}
	}
	for _, f := range fs {
		fv := v.Field(f.index)
		if _, given := values[f.key]; nested(f.typ) && !given {
			d.object(prefix+f.key+".", nil, fv)
		}
		if f.def != "" && fv.IsZero() {
			if err := json.Unmarshal(f.defaultJSON(), fv.Addr().Interface()); err != nil {
				d.diags = append(d.diags, Error(prefix+f.key, fmt.Sprintf("%s: config %s: default %q: %v", d.plugin, prefix+f.key, f.def, err), ""))
			}
		}
		if f.required && fv.IsZero() && !slices.Contains(failed, f.key) {
			d.diags = append(d.diags, Error(prefix+f.key, fmt.Sprintf("%s: config needs %s", d.plugin, prefix+f.key), f.doc))
		}
	}
}

// decodeInto decodes value over the field fv, which changes only when
// value decodes: a bad value leaves what the plugin set or the default.
func decodeInto(fv reflect.Value, value json.RawMessage) error {
	tmp := reflect.New(fv.Type())
	tmp.Elem().Set(fv)
	if err := json.Unmarshal(value, tmp.Interface()); err != nil {
		return err
	}
	fv.Set(tmp.Elem())
	return nil
}

// problem says what is wrong with value v, without repeating a secret.
func (f field) problem(v json.RawMessage, err error) string {
	want := f.expected()
	switch {
	case want == "" && f.secret:
		return "invalid value"
	case want == "":
		return err.Error()
	case f.secret:
		return "want " + want
	}
	return fmt.Sprintf("want %s, got %s", want, shorten(v))
}

// defaultJSON is the default tag as JSON: a string field's default is the
// tag's text, any other's is a JSON value.
func (f field) defaultJSON() []byte {
	if base(f.typ).Kind() == reflect.String && !decodesItself(f.typ) {
		b, _ := json.Marshal(f.def)
		return b
	}
	return []byte(f.def)
}

// base is t without its pointers.
func base(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func isNull(v []byte) bool { return string(v) == "null" }

// shorten bounds v for a summary, cutting at a rune boundary.
func shorten(v []byte) string {
	if len(v) <= maxShown {
		return string(v)
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return string(v[:cut]) + "…"
}

func knownKeys(fs []field) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.key
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
