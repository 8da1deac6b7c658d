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

// kindCommitPaths maps a service to its commit page path, for hosts known
// by their kind only.
var kindCommitPaths = map[string]string{
	sdk.RemoteGitHub: "/commit/",
	sdk.RemoteGitLab: "/-/commit/",
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
		suffix, known = kindCommitPaths[remote.Kind] // a GitHub Enterprise or self-hosted GitLab host
	}
	if !known {
		return nil
	}
	prefix := "https://" + remote.Host + "/" + remote.Path + suffix
	return func(sha string) string { return prefix + sha }
}
