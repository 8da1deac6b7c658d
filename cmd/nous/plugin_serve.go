package main

import (
	"os"
	"runtime/debug"
	"strings"

	"github.com/nous-dev/nous/plugins"
	sdkplugin "github.com/nous-dev/nous/sdk/plugin"
	"github.com/spf13/cobra"
)

// pluginServeCommand is `nous plugin serve NAME`: the process a
// builtin:NAME reference starts, serving that built-in over the plugin
// protocol. It is hidden: nous runs it, people do not.
func (a *app) pluginServeCommand() *cobra.Command {
	parent := &cobra.Command{
		Use:    "plugin",
		Short:  "Plugin internals",
		Hidden: true,
	}
	parent.AddCommand(&cobra.Command{
		Use:   "serve NAME",
		Short: "Serve the built-in plugin NAME over the plugin protocol (nous starts this itself)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			cfg, ok := plugins.Lookup(args[0])
			if !ok {
				return usageError("no built-in plugin %q; built-ins are: %s", args[0], strings.Join(plugins.Names(), ", "))
			}
			softMemoryLimit()
			sdkplugin.Serve(cfg) // exits the process
			return nil
		},
	})
	return parent
}

// pluginMemoryLimit is a plugin process's soft memory limit (Go heap,
// stacks and runtime metadata; the binary's mapped text, ~20 MiB, comes on
// top). Past it the garbage collector runs as often as needed to stay
// under it instead of letting the heap double, trading CPU for memory only
// when a plugin is that large. A question about a week of a 35,000-commit
// repository needs ~30 MiB; a walk of git.git's whole history holds ~250
// MiB, and at 128 MiB the collector's extra work pushed such a walk past
// its time limit, so the limit sits above what real walks need. It is
// soft: a plugin that truly needs more still gets it.
const pluginMemoryLimit = 512 << 20

// softMemoryLimit sets pluginMemoryLimit unless GOMEMLIMIT chose one.
func softMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(pluginMemoryLimit)
	}
}
