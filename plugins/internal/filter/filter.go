// Package filter reads a FetchRequest's filter values the way every remote
// source plugin does, so "a,b" and ["a", "b"] mean the same everywhere.
package filter

import (
	"slices"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// List flattens filter values, splitting comma-separated ones and dropping
// blanks and repeats.
func List(values []string) []string {
	var out []string
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" && !slices.Contains(out, part) {
				out = append(out, part)
			}
		}
	}
	return out
}

// Single returns the one value of the filter key, "" when absent, and a
// bad-request error naming plugin and key when there are several.
func Single(plugin, key string, values []string) (string, error) {
	var out []string
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	switch len(out) {
	case 0:
		return "", nil
	case 1:
		return out[0], nil
	}
	return "", sdk.Errorf(sdk.KindBadRequest, "%s: filter %q takes one value, got %d (%s)", plugin, key, len(out), strings.Join(out, ", "))
}
