package git

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// maxNumstatToken bounds one NUL-terminated field of git's output (a
// path with its counts).
const maxNumstatToken = 64 << 10

// numstat computes commit stats with the git executable: one long-running
// `git diff-tree --stdin` per fetch, fed commit ids and reading back the
// -z --numstat output. git echoes (and flushes) any input line that is not
// an object id, so a marker line after each commit delimits its output.
// It costs what `git log --numstat` costs, where go-git's tree and line
// diffs cost 5-30 times more (see README).
type numstat struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	marker []byte // "nous-stats-<random>\n"
	stderr limitedBuffer
}

// numstatItem is one commit to count: against parent, or as a root when
// parent is empty (a root commit or a shallow clone's boundary).
type numstatItem struct {
	sha, parent string
}

// startNumstat starts `git diff-tree --stdin` on the repository gitDir.
// Renames are detected as `git log --numstat` does by default (-M); no
// external diff or textconv program is ever run.
func startNumstat(ctx context.Context, gitBin, gitDir string) (*numstat, error) {
	token := make([]byte, 8)
	if _, err := rand.Read(token); err != nil {
		return nil, err
	}
	n := &numstat{marker: []byte("nous-stats-" + hex.EncodeToString(token) + "\n")}
	n.cmd = exec.CommandContext(ctx, gitBin, "--git-dir="+gitDir, "diff-tree", "--stdin", "-r", "--root", "-M",
		"--numstat", "-z", "--no-commit-id", "--no-ext-diff", "--no-textconv")
	n.cmd.Env = gitEnv()
	n.stderr.max = 4 << 10
	n.cmd.Stderr = &n.stderr
	var err error
	if n.stdin, err = n.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := n.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := n.cmd.Start(); err != nil {
		return nil, fmt.Errorf("git: starting %s diff-tree: %w", gitBin, err)
	}
	n.out = bufio.NewReaderSize(stdout, maxNumstatToken)
	return n, nil
}

// gitEnv is the environment without variables that would point git at
// another repository than the one named on its command line.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_EXTERNAL_DIFF":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
}

// count returns the stats of each item, in order. The batch is written
// whole before reading: it must stay well below a pipe's buffer (64 KiB),
// which numstatBatch's size guarantees.
func (n *numstat) count(items []numstatItem) ([][]fileStat, error) {
	var in bytes.Buffer
	for _, it := range items {
		in.WriteString(it.sha)
		if it.parent != "" {
			in.WriteString(" " + it.parent)
		}
		in.WriteByte('\n')
		in.Write(n.marker)
	}
	if _, err := n.stdin.Write(in.Bytes()); err != nil {
		return nil, n.failed("writing to", err)
	}
	out := make([][]fileStat, len(items))
	for i := range items {
		fs, err := n.read()
		if err != nil {
			return nil, err
		}
		out[i] = fs
	}
	return out, nil
}

// read parses one commit's numstat records, up to its marker.
func (n *numstat) read() ([]fileStat, error) {
	var fs []fileStat
	for {
		if head, err := n.out.Peek(len(n.marker)); err == nil && bytes.Equal(head, n.marker) {
			_, _ = n.out.Discard(len(n.marker))
			return fs, nil
		}
		tok, err := n.token()
		if err != nil {
			return nil, err
		}
		// "added\tdeleted\tpath", or "added\tdeleted\t" then from and to.
		parts := strings.SplitN(tok, "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("git: unexpected diff-tree output %q", tok)
		}
		st := fileStat{name: parts[2], additions: atoiOrZero(parts[0]), deletions: atoiOrZero(parts[1])}
		if st.name == "" {
			from, err := n.token()
			if err != nil {
				return nil, err
			}
			to, err := n.token()
			if err != nil {
				return nil, err
			}
			st.name = from + " => " + to
		}
		fs = append(fs, st)
	}
}

// token reads one NUL-terminated field.
func (n *numstat) token() (string, error) {
	b, err := n.out.ReadSlice(0)
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return "", fmt.Errorf("git: a diff-tree output field is longer than %d bytes", maxNumstatToken)
	case err != nil:
		return "", n.failed("reading from", err)
	}
	return string(b[:len(b)-1]), nil
}

// atoiOrZero reads a line count; "-" (a binary file) counts 0, as the
// go-git path does.
func atoiOrZero(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return v
}

// failed wraps an I/O error with what git said on stderr.
func (n *numstat) failed(what string, err error) error {
	msg := strings.TrimSpace(n.stderr.String())
	if msg == "" {
		return fmt.Errorf("git: %s git diff-tree: %w", what, err)
	}
	return fmt.Errorf("git: %s git diff-tree: %w: %s", what, err, msg)
}

// close ends git and waits for it.
func (n *numstat) close() {
	_ = n.stdin.Close()
	_ = n.cmd.Wait()
}

// limitedBuffer keeps the first max bytes written to it; safe for the
// process's writer and a concurrent reader.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
