package git

import (
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// commitPaths maps a known forge host to its commit page path, appended to
// https://HOST/OWNER/REPO.
var commitPaths = map[string]string{
	"github.com":    "/commit/",
	"gitlab.com":    "/-/commit/",
	"bitbucket.org": "/commits/",
	"codeberg.org":  "/commit/",
}

// commitURLFunc returns how to link a commit: the configured template when
// set, else the commit page of a known forge the origin points at, else nil.
func commitURLFunc(template string, remote *sdk.Remote) func(sha string) string {
	if template != "" {
		return func(sha string) string { return strings.ReplaceAll(template, "{sha}", sha) }
	}
	if remote == nil {
		return nil
	}
	suffix, known := commitPaths[remote.Host]
	if !known {
		return nil
	}
	prefix := "https://" + remote.Host + "/" + remote.Path + suffix
	return func(sha string) string { return prefix + sha }
}
