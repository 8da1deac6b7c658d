package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) planCommand() *cobra.Command {
	return &cobra.Command{Use: "plan", RunE: func(*cobra.Command, []string) error { return errors.New("plan: not implemented yet") }}
}
