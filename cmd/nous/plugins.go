package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) pluginsCommand() *cobra.Command {
	return &cobra.Command{Use: "plugins", RunE: func(*cobra.Command, []string) error { return errors.New("plugins: not implemented yet") }}
}
