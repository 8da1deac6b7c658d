//go:build !unix

package file

import "os"

// inodeOf is 0: the cache key relies on size and modification time.
func inodeOf(os.FileInfo) uint64 { return 0 }
