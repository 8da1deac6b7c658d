// Package plugins holds the plugins nous ships. The nous binary serves each
// of them as a subprocess of itself (`nous plugin serve NAME`), so one binary
// carries every built-in while each still runs isolated.
package plugins

import (
	"sort"

	"github.com/nous-dev/nous/plugins/file"
	"github.com/nous-dev/nous/plugins/git"
	"github.com/nous-dev/nous/plugins/github"
	"github.com/nous-dev/nous/plugins/gitlab"
	"github.com/nous-dev/nous/plugins/openai"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/plugins/youtrack"
	"github.com/nous-dev/nous/sdk/plugin"
)

// builtins maps a built-in plugin name to its constructor. The light ones
// run on one thread (MaxProcs 1): each call is little work of their own (a
// template, a bounded file, a request to a remote service), and on one
// thread a call costs the plugin a quarter to a third less CPU, because
// gRPC's goroutine hand-offs within it wake no second thread. git walks
// large histories and keeps a thread per CPU.
var builtins = map[string]func() plugin.Config{
	"openai":   func() plugin.Config { return plugin.Config{Agent: openai.New(), MaxProcs: 1} },
	"template": func() plugin.Config { return plugin.Config{Agent: template.New(), MaxProcs: 1} },
	"git":      func() plugin.Config { return plugin.Config{Source: git.New()} },
	"github":   func() plugin.Config { return plugin.Config{Source: github.New(), MaxProcs: 1} },
	"gitlab":   func() plugin.Config { return plugin.Config{Source: gitlab.New(), MaxProcs: 1} },
	"youtrack": func() plugin.Config { return plugin.Config{Source: youtrack.New(), MaxProcs: 1} },
	"file":     func() plugin.Config { return plugin.Config{Source: file.New(), MaxProcs: 1} },
}

// Lookup returns a new instance of the built-in plugin name.
func Lookup(name string) (plugin.Config, bool) {
	c, ok := builtins[name]
	if !ok {
		return plugin.Config{}, false
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
