package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) askCommand() *cobra.Command {
	return &cobra.Command{Use: "ask", RunE: func(*cobra.Command, []string) error { return errors.New("ask: not implemented yet") }}
}
