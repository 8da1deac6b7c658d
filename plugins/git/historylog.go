package git

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// maxHistoryLine bounds one line of `git log` output: a sha, an author's
// name and e-mail address, a date and an encoding.
const maxHistoryLine = 64 << 10

// readHistoryGit reads the history index with one `git log` process, which
// costs a third of go-git's walk and little memory. Names and addresses are
// the raw ones the fetch's author filter matches: no mailmap, no replace
// refs, and a commit in another encoding than UTF-8 (which git would
// re-encode) is read from store. A bound cuts the index as readHistory's
// do; any other failure is an error, and the caller walks with go-git
// instead.
func readHistoryGit(ctx context.Context, gitBin, gitDir string, store storer.EncodedObjectStorer, tip plumbing.Hash) (*history, error) {
	ctx, cancel := context.WithTimeout(ctx, maxIndexTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, gitBin, "--git-dir="+gitDir, "--no-replace-objects", "log",
		"--no-use-mailmap", "--no-show-signature",
		"--format=%H%x00%an%x00%ae%x00%cI%x00%e", "--max-count="+strconv.Itoa(maxIndexCommits+1), tip.String(), "--")
	cmd.Env = gitEnv()
	var stderr limitedBuffer
	stderr.max = 4 << 10
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git: starting %s log: %w", gitBin, err)
	}
	b := newHistoryBuilder(tip)
	parseErr := parseHistory(bufio.NewReaderSize(stdout, maxHistoryLine), store, b)
	if parseErr != nil || b.h.cut != "" {
		cancel() // stop git: the rest is not read
	}
	waitErr := cmd.Wait()
	switch {
	case b.h.cut != "":
	case ctx.Err() != nil:
		b.stop(fmt.Sprintf("the history index stopped after %d commits (%s bound)", b.h.commits, maxIndexTime))
	case parseErr != nil:
		return nil, parseErr
	case waitErr != nil:
		return nil, fmt.Errorf("git: %s log: %w: %s", gitBin, waitErr, bytes.TrimSpace([]byte(stderr.String())))
	}
	return b.finish(), nil
}

// parseHistory adds each "sha NUL name NUL email NUL committer date NUL
// encoding" line to b, up to maxIndexCommits. The date is strict ISO 8601,
// keeping the committer's zone as go-git's commits do.
func parseHistory(r *bufio.Reader, store storer.EncodedObjectStorer, b *historyBuilder) error {
	for {
		line, err := r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return fmt.Errorf("git: a git log line is longer than %d bytes", maxHistoryLine)
		case len(line) == 0 && err != nil:
			return nil // end of output; git's exit status says the rest
		}
		if b.h.commits >= maxIndexCommits {
			b.stop(fmt.Sprintf("the history index stopped at %d commits", maxIndexCommits))
			return nil
		}
		fields := strings.Split(strings.TrimSuffix(string(line), "\n"), "\x00")
		if len(fields) != 5 {
			return fmt.Errorf("git: unexpected git log line %q", line)
		}
		when, err := time.Parse(time.RFC3339, fields[3])
		if err != nil {
			return fmt.Errorf("git: unexpected git log line %q: %w", line, err)
		}
		name, email := fields[1], fields[2]
		if enc := strings.ToLower(fields[4]); enc != "" && enc != "utf-8" && enc != "utf8" {
			c, err := object.GetCommit(store, plumbing.NewHash(fields[0]))
			if err != nil {
				return fmt.Errorf("git: reading commit %s: %w", fields[0], err)
			}
			name, email = c.Author.Name, c.Author.Email
		}
		b.add(name, email, when)
	}
}
