package main

import (
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
			sdkplugin.Serve(cfg) // exits the process
			return nil
		},
	})
	return parent
}
