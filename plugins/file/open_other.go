//go:build !unix

package file

// openFlags adds nothing where there are no FIFOs or symlink races to guard.
const openFlags = 0

// refusedRoots: no such trees outside Unix.
var refusedRoots []string

// swappedForSymlink: openFlags guard no symlink race here.
func swappedForSymlink(error) bool { return false }
