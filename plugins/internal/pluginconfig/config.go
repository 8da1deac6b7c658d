// Package pluginconfig decodes a built-in plugin's config map (the rules file's
// `config = {…}`, as JSON) key by key, with one diagnostic per problem
// naming its key, worded the same way for every plugin.
package pluginconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// Key is one config key a plugin knows.
type Key struct {
	Name string
	// Into receives the value: a pointer json.Unmarshal decodes into, or a
	// func(json.RawMessage) error that decodes (and checks) it itself.
	Into any
	// Want says what a valid value is ("a string"), for the error when the
	// value does not decode; empty shows the decoder's own error instead.
	Want string
	// Secret keys never have their value repeated in a diagnostic.
	Secret bool
}

// Decode decodes raw into keys. An empty raw or null is an empty map. A
// raw that is not a JSON object is an error, and ok is false: there is
// nothing more to check. An unknown key is a warning naming the known
// ones; a value that does not decode is an error saying what was wanted.
// Every summary starts with plugin.
func Decode(plugin string, raw json.RawMessage, keys ...Key) (diags sdk.Diagnostics, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, true
	}
	var values map[string]json.RawMessage
	if err := json.Unmarshal(raw, &values); err != nil {
		return sdk.Diagnostics{Error("", plugin+": config is not a JSON object", err.Error())}, false
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		i := slices.IndexFunc(keys, func(k Key) bool { return k.Name == name })
		if i < 0 {
			diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityWarning, Path: name,
				Summary: fmt.Sprintf("%s: unknown config key %q is ignored", plugin, name),
				Detail:  "known keys: " + knownKeys(keys)})
			continue
		}
		if err := keys[i].decode(values[name]); err != nil {
			diags = append(diags, Error(name, plugin+": config "+name+": "+keys[i].problem(values[name], err), ""))
		}
	}
	return diags, true
}

func (k Key) decode(v json.RawMessage) error {
	if f, ok := k.Into.(func(json.RawMessage) error); ok {
		return f(v)
	}
	return json.Unmarshal(v, k.Into)
}

// problem says what is wrong with value v, without repeating a secret.
func (k Key) problem(v json.RawMessage, err error) string {
	switch {
	case k.Want == "" && k.Secret:
		return "invalid value"
	case k.Want == "":
		return err.Error()
	case k.Secret:
		return "want " + k.Want
	}
	return fmt.Sprintf("want %s, got %s", k.Want, v)
}

// Error is an error diagnostic at path.
func Error(path, summary, detail string) sdk.Diagnostic {
	return sdk.Diagnostic{Severity: sdk.SeverityError, Path: path, Summary: summary, Detail: detail}
}

func knownKeys(keys []Key) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
