package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// maxBinarySize bounds how much of a plugin binary is copied and hashed.
const maxBinarySize = 1 << 30

// sealedBinary is a private copy of a plugin binary whose digest was taken
// while copying: executing it runs exactly the bytes that were checked,
// whatever happens to the original path afterwards.
type sealedBinary struct {
	digest string
	exec   string   // the path the child executes
	extra  *os.File // handed to the child as fd 3 (Linux: the sealed memfd), or nil
	// release frees the copy once the process has ended.
	release func()
}

// sealedCopy is where seal writes the copy; each OS provides one.
type sealedCopy interface {
	io.Writer
	// finish makes the copy immutable and says how to execute it.
	finish() (*sealedBinary, error)
	// discard frees an unfinished copy.
	discard()
}

// seal copies the regular file at path into a sealed copy, hashing as it
// goes. It reads the file once, through one descriptor.
func seal(path string) (*sealedBinary, error) {
	src, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("plugin binary %s: %w", path, err)
	}
	defer src.Close()
	fi, err := src.Stat()
	switch {
	case err != nil:
		return nil, fmt.Errorf("plugin binary %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("plugin binary %s is not a regular file (%s)", path, fi.Mode().Type())
	}
	dst, err := newSealedCopy(filepath.Base(path))
	if err != nil {
		return nil, fmt.Errorf("copying plugin binary %s to run it: %w", path, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(dst, h), io.LimitReader(src, maxBinarySize+1))
	switch {
	case err != nil:
		dst.discard()
		return nil, fmt.Errorf("hashing plugin binary %s: %w", path, err)
	case n > maxBinarySize:
		dst.discard()
		return nil, fmt.Errorf("plugin binary %s is larger than %d MiB, the most nous checks and runs", path, maxBinarySize>>20)
	}
	sb, err := dst.finish()
	if err != nil {
		return nil, fmt.Errorf("sealing the copy of plugin binary %s: %w", path, err)
	}
	sb.digest = hex.EncodeToString(h.Sum(nil))
	sb.release = sync.OnceFunc(sb.release) // the runner and a failed start may both release
	return sb, nil
}

// fileCopy is the portable sealed copy: a file in a fresh directory only
// this user can enter, made read-only once written. Nobody who could swap
// the original (other users, the project) can change it; a process of the
// same user could, as it could change nous itself.
type fileCopy struct {
	dir  string
	file *os.File
}

func newFileCopy(name string) (*fileCopy, error) {
	dir, err := os.MkdirTemp("", "nous-plugin-")
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o700)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &fileCopy{dir: dir, file: f}, nil
}

func (c *fileCopy) Write(p []byte) (int, error) { return c.file.Write(p) }

func (c *fileCopy) finish() (*sealedBinary, error) {
	path := c.file.Name()
	err := c.file.Close()
	if err == nil {
		err = os.Chmod(path, 0o500)
	}
	if err != nil {
		_ = os.RemoveAll(c.dir)
		return nil, err
	}
	dir := c.dir
	return &sealedBinary{exec: path, release: func() { _ = os.RemoveAll(dir) }}, nil
}

func (c *fileCopy) discard() {
	_ = c.file.Close()
	_ = os.RemoveAll(c.dir)
}
