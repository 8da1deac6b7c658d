package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// TODO(owner): replace this placeholder with the real command.
func (a *app) fmtCommand() *cobra.Command {
	return &cobra.Command{Use: "fmt", RunE: func(*cobra.Command, []string) error { return errors.New("fmt: not implemented yet") }}
}
