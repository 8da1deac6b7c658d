package gitremote

import (
	"net/url"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// Hosts maps host names to the service they belong to (sdk.RemoteGitHub or
// sdk.RemoteGitLab): the self-hosted instances a remote may point at.
type Hosts map[string]string

// publicHosts are the host names the services document for cloning.
var publicHosts = Hosts{
	"github.com":        sdk.RemoteGitHub,
	"www.github.com":    sdk.RemoteGitHub, // git follows GitHub's redirect
	"ssh.github.com":    sdk.RemoteGitHub, // SSH over port 443
	"gitlab.com":        sdk.RemoteGitLab,
	"www.gitlab.com":    sdk.RemoteGitLab,
	"altssh.gitlab.com": sdk.RemoteGitLab, // SSH over port 443
}

// kind is the service host belongs to: a public one, else one of h; "" when unknown.
func (h Hosts) kind(host string) string {
	if k := publicHosts[host]; k != "" {
		return k
	}
	return h[host]
}

// hostVars are the environment variables that name a service's instance:
// GitHub Actions sets GITHUB_API_URL and GITHUB_SERVER_URL (GitHub
// Enterprise Server: https://HOST/api/v3 and https://HOST), GitLab CI sets
// CI_SERVER_URL, and nous's gitlab source reads GITLAB_URL.
var hostVars = []struct{ name, kind string }{
	{"GITHUB_API_URL", sdk.RemoteGitHub},
	{"GITHUB_SERVER_URL", sdk.RemoteGitHub},
	{"GITLAB_URL", sdk.RemoteGitLab},
	{"CI_SERVER_URL", sdk.RemoteGitLab},
}

// HostsFromEnv returns the instances the environment names (see hostVars),
// so a remote on a GitHub Enterprise or self-hosted GitLab host is known for
// what it is. An API host "api.NAME" also stands for NAME, as GitHub's
// api.github.com and GHE.com's api.SUBDOMAIN.ghe.com do.
func HostsFromEnv(getenv func(string) string) Hosts {
	h := Hosts{}
	for _, v := range hostVars {
		u, err := url.Parse(strings.TrimSpace(getenv(v.name)))
		if err != nil || u.Hostname() == "" {
			continue
		}
		host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
		if _, taken := h[host]; !taken {
			h[host] = v.kind
		}
		if rest, ok := strings.CutPrefix(host, "api."); ok && strings.Contains(rest, ".") {
			if _, taken := h[rest]; !taken {
				h[rest] = v.kind
			}
		}
	}
	return h
}
