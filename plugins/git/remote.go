package git

import (
	"os"

	gogit "github.com/go-git/go-git/v5"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/gitremote"
)

// originRemote reads the first URL of the origin remote from the
// repository's config; nil when there is none or it is not a hosted project.
// The environment names self-hosted instances (gitremote.HostsFromEnv).
func originRemote(repo *gogit.Repository) *sdk.Remote {
	remote, err := repo.Remote("origin")
	if err != nil || len(remote.Config().URLs) == 0 {
		return nil
	}
	r, ok := gitremote.Parse(remote.Config().URLs[0], gitremote.HostsFromEnv(os.Getenv))
	if !ok {
		return nil
	}
	return &r
}
