// Package examples ships the default rules, embedded in the nous binary.
package examples

import (
	"crypto/sha256"
	"embed"
	"io/fs"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

//go:generate go run ./internal/snapshot

//go:embed rules/default/*.hcl
var defaultRules embed.FS

// DefaultRules returns the embedded default rules files. The file system
// also holds their syntax trees (rules.Parsed), generated from the files
// by go generate: loading them needs no parsing.
func DefaultRules() fs.FS {
	sub, err := fs.Sub(defaultRules, "rules/default")
	if err != nil {
		panic(err) // the embed pattern above guarantees the directory exists
	}
	return parsedFS{sub}
}

// parsedFS is the default rules with their syntax trees.
type parsedFS struct{ fs.FS }

// parsedFile is a file's syntax tree and the SHA-256 of the content it was
// parsed from.
type parsedFile struct {
	sum  [sha256.Size]byte
	body func() *hclsyntax.Body
}

// ParsedBody returns the syntax tree of the file named name when src is
// the content it was generated from: a file edited since go generate last
// ran is parsed as any other.
func (parsedFS) ParsedBody(name string, src []byte) *hclsyntax.Body {
	p, ok := parsed[name]
	if !ok || p.sum != sha256.Sum256(src) {
		return nil
	}
	return p.body()
}
