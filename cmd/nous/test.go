package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) testCommand() *cobra.Command {
	return &cobra.Command{Use: "test", RunE: func(*cobra.Command, []string) error { return errors.New("test: not implemented yet") }}
}
