package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) pluginServeCommand() *cobra.Command {
	return &cobra.Command{Use: "plugin", Hidden: true, RunE: func(*cobra.Command, []string) error { return errors.New("plugin: not implemented yet") }}
}
