package git

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"
)

// maxObjectSize bounds one object read through git cat-file. Commits and
// trees are kilobytes (a 100,000-file directory's tree is a few MiB); only
// go-git's stats fallback reads blobs, and git's own diff treats much
// smaller files as too large to count lines in.
const maxObjectSize = 64 << 20

// maxHeaderLine bounds cat-file's header line: "<oid> <type> <size>\n".
const maxHeaderLine = 256

// errObjectTooLarge marks an object refused for its size.
var errObjectTooLarge = errors.New("object too large")

// catFile is one long-running `git cat-file --batch`: it is sent object
// ids, one a line, and answers each with a header line and the object's
// whole content, undeltified, as stored in the repository.
type catFile struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr limitedBuffer
	// killed is set once kill ran: the process is dead or dying.
	killed atomic.Bool
}

// startCatFile starts `git cat-file --batch` on the repository gitDir, in
// the environment numstat uses (the caller's GIT_DIR never leaks in).
// Objects are read as stored, as go-git reads them: no replace refs.
func startCatFile(gitBin, gitDir string) (*catFile, error) {
	c := &catFile{cmd: exec.Command(gitBin, "--git-dir="+gitDir, "--no-replace-objects", "cat-file", "--batch")}
	c.cmd.Env = gitEnv()
	c.stderr.max = 4 << 10
	c.cmd.Stderr = &c.stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("git: starting %s cat-file: %w", gitBin, err)
	}
	c.out = bufio.NewReaderSize(stdout, 64<<10)
	return c, nil
}

// object reads h: its type and content, or plumbing.ErrObjectNotFound.
// An object larger than limit is refused with errObjectTooLarge; the
// process is then out of step and must be killed.
func (c *catFile) object(h plumbing.Hash, limit int64) (plumbing.ObjectType, []byte, error) {
	t, size, err := c.header(h)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	if size > limit {
		return plumbing.InvalidObject, nil, fmt.Errorf("git: %s %s has %d bytes, more than the %d the git source reads at once: %w", t, h, size, limit, errObjectTooLarge)
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return plumbing.InvalidObject, nil, c.failed("reading from", err)
	}
	if data[size] != '\n' {
		return plumbing.InvalidObject, nil, fmt.Errorf("git: cat-file output of %s does not end with a newline", h)
	}
	return t, data[:size], nil
}

// size reads h's type and size, skipping its content.
func (c *catFile) size(h plumbing.Hash) (plumbing.ObjectType, int64, error) {
	t, size, err := c.header(h)
	if err != nil {
		return plumbing.InvalidObject, 0, err
	}
	if _, err := io.CopyN(io.Discard, c.out, size+1); err != nil {
		return plumbing.InvalidObject, 0, c.failed("reading from", err)
	}
	return t, size, nil
}

// header asks for h and reads the header line of the answer.
func (c *catFile) header(h plumbing.Hash) (plumbing.ObjectType, int64, error) {
	if _, err := io.WriteString(c.in, h.String()+"\n"); err != nil {
		return plumbing.InvalidObject, 0, c.failed("writing to", err)
	}
	line, err := c.out.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull) || (err == nil && len(line) > maxHeaderLine):
		return plumbing.InvalidObject, 0, fmt.Errorf("git: cat-file header for %s is longer than %d bytes", h, maxHeaderLine)
	case err != nil:
		return plumbing.InvalidObject, 0, c.failed("reading from", err)
	}
	return parseHeader(line, h)
}

// parseHeader parses cat-file's answer to a request for want, exactly as
// git writes it: "<want> <type> <size>\n", or "<want> missing\n"
// (plumbing.ErrObjectNotFound). Any other line means git and the reader
// are out of step.
func parseHeader(line []byte, want plumbing.Hash) (plumbing.ObjectType, int64, error) {
	fields := strings.Split(strings.TrimSuffix(string(line), "\n"), " ")
	switch {
	case len(line) == 0 || line[len(line)-1] != '\n' || fields[0] != want.String():
		return plumbing.InvalidObject, 0, fmt.Errorf("git: unexpected cat-file header %q for %s", line, want)
	case len(fields) == 2 && fields[1] == "missing":
		return plumbing.InvalidObject, 0, plumbing.ErrObjectNotFound
	case len(fields) != 3:
		return plumbing.InvalidObject, 0, fmt.Errorf("git: unexpected cat-file header %q for %s", line, want)
	}
	t, err := plumbing.ParseObjectType(fields[1])
	if err != nil || t < plumbing.CommitObject || t > plumbing.TagObject {
		return plumbing.InvalidObject, 0, fmt.Errorf("git: unexpected object type in cat-file header %q", line)
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != fields[2] {
		return plumbing.InvalidObject, 0, fmt.Errorf("git: unexpected object size in cat-file header %q", line)
	}
	return t, size, nil
}

// failed wraps an I/O error with what git said on stderr.
func (c *catFile) failed(what string, err error) error {
	if msg := strings.TrimSpace(c.stderr.String()); msg != "" {
		return fmt.Errorf("git: %s git cat-file: %w: %s", what, err, msg)
	}
	return fmt.Errorf("git: %s git cat-file: %w", what, err)
}

// kill ends git at once; safe while another goroutine reads.
func (c *catFile) kill() {
	c.killed.Store(true)
	_ = c.cmd.Process.Kill()
}

// close ends git and waits for it: closing its input lets it exit.
func (c *catFile) close() {
	_ = c.in.Close()
	_ = c.cmd.Wait()
}
