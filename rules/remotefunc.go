package rules

import (
	"path/filepath"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/gitremote"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// remoteType is git_remote's result: where a repository is hosted.
var remoteType = cty.Object(map[string]cty.Type{
	"host": cty.String, // "github.com"
	"path": cty.String, // "owner/name", "group/sub/name"
	"kind": cty.String, // "github", "gitlab", or "" for another host
	"url":  cty.String, // "https://github.com/owner/name"
})

// remotes answers git_remote for one load: each repository is read once,
// relative paths from the directory of the file being decoded.
type remotes struct {
	origin func(dir string) (sdk.Remote, bool)
	dir    string // of the file being decoded; "" for the working directory
	seen   map[string]cty.Value
}

func newRemotes(cfg config) *remotes {
	origin := cfg.gitRemote
	if origin == nil {
		origin = func(dir string) (sdk.Remote, bool) {
			getenv := func(name string) string { v, _ := cfg.lookupEnv(name); return v }
			return gitremote.Origin(dir, gitremote.HostsFromEnv(getenv))
		}
	}
	return &remotes{origin: origin, seen: map[string]cty.Value{}}
}

// function is git_remote(path): the hosted project the origin remote of the
// repository at path names, with every value "" when there is none (no
// repository, no origin, or a local one). A relative path is relative to
// the rules file's directory, or to the working directory for rules that
// are not files (the embedded defaults), as the git source's path is.
func (r *remotes) function() function.Function {
	return function.New(&function.Spec{
		Description: `Returns where the git repository at path is hosted, from its origin remote: {host, path, kind ("github", "gitlab" or ""), url}; every value is "" when there is none.`,
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(remoteType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			dir := args[0].AsString()
			if !filepath.IsAbs(dir) && r.dir != "" {
				dir = filepath.Join(r.dir, dir)
			}
			if v, ok := r.seen[dir]; ok {
				return v, nil
			}
			var remote sdk.Remote
			url := ""
			if got, ok := r.origin(dir); ok {
				remote, url = got, "https://"+got.Host+"/"+got.Path
			}
			v := cty.ObjectVal(map[string]cty.Value{
				"host": cty.StringVal(remote.Host), "path": cty.StringVal(remote.Path),
				"kind": cty.StringVal(remote.Kind), "url": cty.StringVal(url),
			})
			r.seen[dir] = v
			return v, nil
		},
	})
}
