// Package examples ships the default rules, embedded in the nous binary.
package examples

import (
	"embed"
	"io/fs"
)

//go:embed rules/default/*.hcl
var defaultRules embed.FS

// DefaultRules returns the embedded default rules files.
func DefaultRules() fs.FS {
	sub, err := fs.Sub(defaultRules, "rules/default")
	if err != nil {
		panic(err) // the embed pattern above guarantees the directory exists
	}
	return sub
}
