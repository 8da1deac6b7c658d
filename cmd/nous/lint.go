package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) lintCommand() *cobra.Command {
	return &cobra.Command{Use: "lint", RunE: func(*cobra.Command, []string) error { return errors.New("lint: not implemented yet") }}
}
