//go:build !linux

package plugin

// newSealedCopy returns a private file copy: without sealable memory files
// the copy lives in a directory only this user can enter.
func newSealedCopy(name string) (sealedCopy, error) { return newFileCopy(name) }
