package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) fetchCommand() *cobra.Command {
	return &cobra.Command{Use: "fetch", RunE: func(*cobra.Command, []string) error { return errors.New("fetch: not implemented yet") }}
}
