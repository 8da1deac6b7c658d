package git

import (
	"net/url"
	"strings"

	gogit "github.com/go-git/go-git/v5"
)

// commitPaths maps a known forge host to its commit page path, appended to
// https://HOST/OWNER/REPO.
var commitPaths = map[string]string{
	"github.com":    "/commit/",
	"gitlab.com":    "/-/commit/",
	"bitbucket.org": "/commits/",
	"codeberg.org":  "/commit/",
}

// originURL returns the first URL of the origin remote, or "".
func originURL(repo *gogit.Repository) string {
	remote, err := repo.Remote("origin")
	if err != nil || len(remote.Config().URLs) == 0 {
		return ""
	}
	return remote.Config().URLs[0]
}

// commitURLFunc returns how to link a commit: the configured template when
// set, else the commit page of a known forge the origin points at, else nil.
func commitURLFunc(template, remote string) func(sha string) string {
	if template != "" {
		return func(sha string) string { return strings.ReplaceAll(template, "{sha}", sha) }
	}
	host, repoPath, ok := splitRemote(remote)
	if !ok {
		return nil
	}
	suffix, known := commitPaths[host]
	if !known {
		return nil
	}
	prefix := "https://" + host + "/" + repoPath + suffix
	return func(sha string) string { return prefix + sha }
}

// splitRemote splits a remote URL (https://, ssh://, git@host:owner/repo)
// into its host and repository path without ".git". Credentials embedded
// in the URL are dropped, never echoed.
func splitRemote(remote string) (host, repoPath string, ok bool) {
	remote = strings.TrimSpace(remote)
	if remote == "" {
		return "", "", false
	}
	if !strings.Contains(remote, "://") {
		// scp-like syntax: [user@]host:owner/repo.git
		hostPart, p, found := strings.Cut(remote, ":")
		if !found || strings.Contains(hostPart, "/") {
			return "", "", false
		}
		if _, h, hasUser := strings.Cut(hostPart, "@"); hasUser {
			hostPart = h
		}
		host, repoPath = hostPart, p
	} else {
		u, err := url.Parse(remote)
		if err != nil || u.Hostname() == "" {
			return "", "", false
		}
		host, repoPath = u.Hostname(), u.Path
	}
	repoPath = strings.TrimSuffix(strings.Trim(repoPath, "/"), ".git")
	if repoPath == "" {
		return "", "", false
	}
	return strings.ToLower(host), repoPath, true
}
