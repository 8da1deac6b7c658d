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

// Ref returns the one branch or tag a listing takes: filter "ref", else
// "revisions", what the engine sends for a ref the question names ("is CI
// green on main?"), which must be one ref rather than a range.
func Ref(plugin, kind string, f map[string][]string) (string, error) {
	ref, err := Single(plugin, "ref", f["ref"])
	if err != nil || ref != "" {
		return ref, err
	}
	rev, err := Single(plugin, "revisions", f["revisions"])
	if err == nil && strings.Contains(rev, "..") {
		err = sdk.Errorf(sdk.KindBadRequest, `%s: filter "revisions": %q is a range; the %s listing takes one branch or tag`, plugin, rev, kind)
	}
	return rev, err
}

// OpenOrClosed maps a status word onto the two states GitHub's and
// GitLab's issues have, where a tracker's workflow states fall too
// ("in-progress" is open, "fixed" closed): "open", "closed", or "" for any
// other word.
func OpenOrClosed(status string) string {
	switch strings.ToLower(strings.TrimSpace(status)) {
	case "open", "opened", "unresolved", "in-progress", "in progress", "reopened", "blocked", "todo":
		return "open"
	case "closed", "resolved", "done", "fixed", "completed":
		return "closed"
	}
	return ""
}
