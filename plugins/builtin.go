// Package plugins holds the plugins nous ships. The nous binary serves each
// of them as a subprocess of itself (`nous plugin serve NAME`), so one binary
// carries every built-in while each still runs isolated.
package plugins

import (
	"sort"

	"github.com/nous-dev/nous/plugins/file"
	"github.com/nous-dev/nous/plugins/git"
	"github.com/nous-dev/nous/plugins/gitlab"
	"github.com/nous-dev/nous/plugins/openai"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/plugins/youtrack"
	"github.com/nous-dev/nous/sdk"
)

// builtins maps a built-in plugin name to its constructor.
var builtins = map[string]func() sdk.ServeConfig{
	"openai":   func() sdk.ServeConfig { return sdk.ServeConfig{Agent: openai.New()} },
	"template": func() sdk.ServeConfig { return sdk.ServeConfig{Agent: template.New()} },
	"git":      func() sdk.ServeConfig { return sdk.ServeConfig{Source: git.New()} },
	"gitlab":   func() sdk.ServeConfig { return sdk.ServeConfig{Source: gitlab.New()} },
	"youtrack": func() sdk.ServeConfig { return sdk.ServeConfig{Source: youtrack.New()} },
	"file":     func() sdk.ServeConfig { return sdk.ServeConfig{Source: file.New()} },
}

// Lookup returns a new instance of the built-in plugin name.
func Lookup(name string) (sdk.ServeConfig, bool) {
	c, ok := builtins[name]
	if !ok {
		return sdk.ServeConfig{}, false
	}
	return c(), true
}

// Names lists the built-in plugins, sorted.
func Names() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
