package gitremote

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/nous-dev/nous/sdk"
)

// Bounds of what Origin reads.
const (
	maxConfigBytes = 1 << 20 // a repository's config file
	maxLinkBytes   = 4 << 10 // a worktree's .git file, a commondir file
	maxLevels      = 128     // directories walked up looking for the repository
)

// Origin returns where the repository that holds dir is hosted, from the
// first URL of its origin remote; false when dir is in no repository, the
// repository has no origin, or the origin is no hosted project (a local
// path, say). Linked worktrees and bare repositories are found as git finds
// them. Only the repository's own config is read: includes and
// url.*.insteadOf rewrites in other files are not applied.
func Origin(dir string, hosts Hosts) (sdk.Remote, bool) {
	gitDir, ok := findGitDir(dir)
	if !ok {
		return sdk.Remote{}, false
	}
	b, ok := readBounded(filepath.Join(commonDir(gitDir), "config"), maxConfigBytes)
	if !ok {
		return sdk.Remote{}, false
	}
	cfg := config.New()
	if err := config.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return sdk.Remote{}, false
	}
	urls := cfg.Section("remote").Subsection("origin").OptionAll("url")
	if len(urls) == 0 {
		return sdk.Remote{}, false
	}
	return Parse(urls[0], hosts) // git fetches from the first
}

// findGitDir walks up from dir to the repository's git directory: a .git
// directory, the directory a .git file points at (a linked worktree or a
// submodule), or dir itself when it is a bare repository.
func findGitDir(dir string) (string, bool) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for range maxLevels {
		dotGit := filepath.Join(d, ".git")
		if info, err := os.Stat(dotGit); err == nil {
			if info.IsDir() {
				return dotGit, true
			}
			return gitFileTarget(d, dotGit)
		}
		if isBare(d) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", false
}

// gitFileTarget reads a .git file ("gitdir: PATH", PATH relative to dir).
func gitFileTarget(dir, file string) (string, bool) {
	b, ok := readBounded(file, maxLinkBytes)
	if !ok {
		return "", false
	}
	target, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !found {
		return "", false
	}
	return resolve(dir, strings.TrimSpace(target)), true
}

// commonDir is where a git directory's config lives: the main repository's
// for a linked worktree (its commondir file), else the directory itself.
func commonDir(gitDir string) string {
	b, ok := readBounded(filepath.Join(gitDir, "commondir"), maxLinkBytes)
	if !ok || strings.TrimSpace(string(b)) == "" {
		return gitDir
	}
	return resolve(gitDir, strings.TrimSpace(string(b)))
}

// isBare reports whether dir looks like a bare repository to git: HEAD,
// objects and refs in it.
func isBare(dir string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return false
		}
	}
	return true
}

func resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// readBounded reads a regular file of at most limit bytes.
func readBounded(name string, limit int64) ([]byte, bool) {
	f, err := os.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(b)) > limit {
		return nil, false
	}
	return b, true
}
