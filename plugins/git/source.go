// Package git is the local git repository source: commits with since/until,
// path, author and ref filters, read with go-git, without network or
// credentials. It is the default commit source when no GitLab token is set.
package git

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/nous-dev/nous/sdk"
	sdkconfig "github.com/nous-dev/nous/sdk/config"
)

// Version is the git source's version.
const Version = "0.1.0"

// Filter keys the source understands. Others (projects, statuses, dates…)
// are ignored: the engine sends every retrieval's filters to its source,
// and dates arrive already resolved as Since/Until.
var filterKeys = []string{"paths", "authors", "revisions", "topics", "path", "author", "ref", "query", "with_stats"}

// Source reads commits from a local repository. Its zero value is not
// ready; use New, then Configure.
//
// Fetch and Ground run in parallel, each on a repository handle of its
// own (see handles); Configure, which swaps the repository, runs alone.
type Source struct {
	// mu is held for reading by Fetch and Ground and for writing by
	// Configure: the fields below it change only under the write lock.
	mu  sync.RWMutex
	cfg config
	// pool hands each call a repository handle; nil when not configured.
	pool *handles
	// openErr is why the repository could not be opened, reported by Fetch.
	openErr error
	// remote is the origin's hosted project, read at configuration; nil
	// when unknown.
	remote *sdk.Remote
	// commitURL links a commit sha to its web page; nil when unknown.
	commitURL func(sha string) string
	// gitDir is the .git directory, for the display ids; nil when the
	// storage is not a directory.
	gitDir billy.Filesystem
	// names keeps the object names the display ids are computed from;
	// nil when the storage is not a directory.
	names *objectNames
	// gitBin is the git executable that reads objects and computes stats;
	// empty when git is not installed (go-git does both).
	gitBin string

	// cacheMu guards hist and paths: what Ground read of the configured
	// ref, its author index and its tip's tree listing, each read on first
	// need. They are read outside the lock: concurrent first readers each
	// read, the last one's is kept.
	cacheMu sync.Mutex
	hist    *history
	paths   *tree
	// stats caches commits' stats: they never change for a commit and
	// its parent, whatever the configuration.
	stats *statsCache
	// commits and entries cache the configured repository's decoded
	// commits and the path filter's tree entries.
	commits *commitCache
	entries *entryCache
	// peeled caches annotated tags' targets.
	peeled *peelCache
}

// New returns an unconfigured git source.
func New() *Source {
	s := &Source{openErr: sdk.Errorf(sdk.KindBadConfig, "git: source is not configured"), stats: newStatsCache(), commits: newCommitCache(), entries: newEntryCache(), peeled: newPeelCache()}
	s.gitBin, _ = exec.LookPath("git")
	return s
}

// Describe says what the source returns and which filters it understands.
func (s *Source) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{
		Name:         "git",
		Version:      Version,
		SDKVersion:   sdk.Version,
		Kinds:        []string{sdk.KindCommit},
		Filters:      append([]string(nil), filterKeys...),
		ConfigSchema: sdkconfig.Schema[config](),
	}, nil
}

// Configure decodes the config and opens the repository, discovering .git
// upward from the configured path. It waits for the calls under way.
func (s *Source) Configure(ctx context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := decodeConfig(raw, sdk.ConfigDir(ctx))
	if diags.HasErrors() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.pool.close()
		s.pool, s.openErr = nil, sdk.Errorf(sdk.KindBadConfig, "git: invalid configuration: %s", diags[len(diags)-1].Summary)
		return diags, nil
	}
	first, gitDir, err := open(cfg.Path, s.objectsBin())
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pool.close()
	s.pool = nil
	s.cfg, s.openErr = cfg, err
	s.cacheMu.Lock()
	s.hist, s.paths = nil, nil
	s.cacheMu.Unlock()
	s.commits, s.entries, s.peeled = newCommitCache(), newEntryCache(), newPeelCache()
	if err != nil {
		diags = append(diags, sdk.Diagnostic{Severity: sdk.SeverityError, Summary: err.Error(), Path: "path"})
		return diags, nil
	}
	if first.objects != nil {
		first.objects.start()
	}
	s.pool = newHandles(first, gitDir, s.objectsBin())
	s.remote = originRemote(first.repo)
	s.commitURL = commitURLFunc(cfg.CommitURL, s.remote)
	s.gitDir = gitDir
	s.names = nil
	if gitDir != nil {
		s.names = newObjectNames(gitDir.Root())
	}
	return diags, nil
}

// objectsWithGit is false in tests that run the whole suite on go-git's
// object storage.
var objectsWithGit = true

// objectsBin is the git executable that reads objects, empty for go-git.
func (s *Source) objectsBin() string {
	if !objectsWithGit {
		return ""
	}
	return s.gitBin
}

// objectCacheSize bounds go-git's cache of decoded pack objects (96 MiB
// by default). It serves delta bases and repeated reads when go-git reads
// objects; commits and trees are kilobytes and the walk keeps the commits
// it visits, so a few MiB keep the hit rate while bounding memory.
const objectCacheSize = 8 * cache.MiByte

// open opens the repository containing path and returns its first handle
// and its .git directory (nil when the storage is not a directory). With
// gitBin its objects are read through git cat-file.
func open(path, gitBin string) (*handle, billy.Filesystem, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	repo, err := gogit.PlainOpenWithOptions(abs, &gogit.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	switch {
	case errors.Is(err, gogit.ErrRepositoryNotExists):
		return nil, nil, sdk.Errorf(sdk.KindNotFound, "git: not a git repository (nor any parent directory): %s", abs)
	case errors.Is(err, gogit.ErrUnknownExtension) && strings.Contains(err.Error(), "objectformat"):
		return nil, nil, sdk.Errorf(sdk.KindBadConfig, "git: %s uses SHA-256 object names (extensions.objectFormat), which the git source cannot read yet", abs)
	case err != nil:
		return nil, nil, sdk.Errorf(sdk.KindBadConfig, "git: cannot open repository at %s: %w", abs, err)
	}
	st, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return &handle{repo: repo}, nil, nil
	}
	h, err := openHandle(st.Filesystem(), gitBin)
	if err != nil {
		return nil, nil, sdk.Errorf(sdk.KindBadConfig, "git: cannot open repository at %s: %w", abs, err)
	}
	return h, st.Filesystem(), nil
}

// openHandle opens the .git directory gitDir on a storage of its own:
// its own pack files, kept open (by default go-git opens and closes the
// pack for every object it reads, which dominates a history walk), and its
// own object cache. With gitBin its objects are read through git cat-file.
func openHandle(gitDir billy.Filesystem, gitBin string) (*handle, error) {
	// Alternates name absolute directories, outside the .git directory
	// go-git's storage is confined to unless given the whole file system.
	kept := filesystem.NewStorageWithOptions(gitDir, cache.NewObjectLRU(objectCacheSize),
		filesystem.Options{KeepDescriptors: true, AlternatesFS: osfs.New(string(filepath.Separator))})
	h := &handle{}
	packs := newPackStore(kept, gitDir.Root())
	var store storage.Storer = packs
	if gitBin != "" {
		h.objects = newCatFileStore(packs, gitBin, gitDir.Root())
		store = h.objects
	}
	repo, err := gogit.Open(store, nil)
	if err != nil {
		_ = kept.Close()
		return nil, err
	}
	h.repo = repo
	return h, nil
}

// closeRepo releases the pack files a previous configuration kept open.
func closeRepo(repo *gogit.Repository) {
	if repo == nil {
		return
	}
	if st, ok := repo.Storer.(io.Closer); ok {
		_ = st.Close()
	}
}
