// Package gitremote reads where a git repository is hosted: its origin
// remote's URL, as a host and a project path without credentials, and the
// service the host belongs to (GitHub, GitLab or unknown).
package gitremote

import (
	"net"
	"net/url"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// Bounds of a remote URL: longer URLs or deeper paths are not projects.
const (
	maxRemoteBytes    = 2048
	maxRemoteSegments = 21 // GitLab nests at most 20 groups above a project
)

// remoteSchemes are the URL schemes git fetches a hosted project over.
var remoteSchemes = map[string]bool{"https": true, "http": true, "ssh": true, "git": true, "git+ssh": true, "ssh+git": true}

// Parse reads a remote URL in any form git accepts for a hosted
// project: scheme://[user[:password]@]host[:port]/path, or scp-like
// [user@]host:path. Credentials and ports are dropped; local paths,
// file:// and unknown schemes, and anything malformed give false.
// The host's Kind comes from hosts (nil: the public services only).
func Parse(raw string, hosts Hosts) (sdk.Remote, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxRemoteBytes {
		return sdk.Remote{}, false
	}
	host, repoPath, ok := splitURL(raw)
	if !ok {
		host, repoPath, ok = splitSCP(raw)
	}
	if !ok {
		return sdk.Remote{}, false
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	repoPath, ok = cleanRepoPath(repoPath)
	if !ok || !validHost(host) {
		return sdk.Remote{}, false
	}
	r := sdk.Remote{Host: host, Path: repoPath, Kind: hosts.kind(host)}
	segments := strings.Count(repoPath, "/") + 1
	if (r.Kind == sdk.RemoteGitHub && segments != 2) || (r.Kind == sdk.RemoteGitLab && segments < 2) {
		return sdk.Remote{}, false // an owner or group page, not a project
	}
	return r, true
}

// splitURL splits the scheme://… form; ok is false when raw is not one
// or its scheme is not a hosted project's.
func splitURL(raw string) (host, repoPath string, ok bool) {
	scheme, _, found := strings.Cut(raw, "://")
	if !found || !remoteSchemes[strings.ToLower(scheme)] {
		return "", "", false
	}
	u, err := url.Parse(raw) // its error quotes raw, credentials included: never shown
	if err != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || strings.Contains(u.RawPath, "%") {
		return "", "", false
	}
	return u.Hostname(), u.Path, true
}

// splitSCP splits the scp-like form [user@]host:path, which git takes for
// a local path when a slash comes before the first colon.
func splitSCP(raw string) (host, repoPath string, ok bool) {
	if strings.Contains(raw, "://") {
		return "", "", false
	}
	end := strings.IndexByte(raw, '/')
	if end < 0 {
		end = len(raw)
	}
	if at := strings.LastIndexByte(raw[:end], '@'); at >= 0 {
		raw = raw[at+1:] // drop the user (and anything that looks like a password)
	}
	if strings.HasPrefix(raw, "[") { // [host]:path or [::1]:path
		closing := strings.Index(raw, "]:")
		if closing < 0 {
			return "", "", false
		}
		return raw[1:closing], raw[closing+2:], true
	}
	host, repoPath, found := strings.Cut(raw, ":")
	if !found || strings.Contains(host, "/") || len(host) == 1 {
		return "", "", false // a single letter is a Windows drive: C:/src/repo
	}
	return host, repoPath, true
}

// cleanRepoPath trims slashes and ".git" and checks every segment is a
// plain name: no empty, "." or ".." segments, no escapes, spaces or
// control characters.
func cleanRepoPath(p string) (string, bool) {
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	if p == "" || strings.Count(p, "/") >= maxRemoteSegments {
		return "", false
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsFunc(seg, badPathRune) {
			return "", false
		}
	}
	return p, true
}

func badPathRune(r rune) bool {
	return r <= ' ' || r == 0x7f || r == '%' || r == '\\' || r == '?' || r == '#' || r == '@' || r == ':' || r > 0x7e
}

// validHost accepts a DNS name of letters, digits, hyphens, dots and
// underscores, or an IP address.
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	if net.ParseIP(h) != nil {
		return true
	}
	for _, r := range h {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return !strings.HasPrefix(h, ".") && !strings.HasPrefix(h, "-") && !strings.Contains(h, "..")
}
