package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// EnvTrustProject set to 1 runs a project's plugin binaries without a trust
// record: for CI, where the checkout is the code under test.
const EnvTrustProject = "NOUS_TRUST_PROJECT_PLUGINS"

// trustFileName is the trust list's name in the user's config directory.
const trustFileName = "trusted-plugins.json"

// maxTrustFile bounds the trust list nous reads.
const maxTrustFile = 4 << 20

// trustList is the file `nous plugins trust` writes: for each project
// directory, the plugin binaries the user allowed it to run and their
// sha256. A binary whose digest changed is not trusted until trusted again.
type trustList struct {
	Version  int                          `json:"version"`
	Projects map[string]map[string]string `json:"projects"` // project dir → binary path → sha256
}

// Trusted is one binary `nous plugins trust` recorded.
type Trusted struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// UntrustedError refuses a project's plugin binary the user has not
// trusted, or that changed since.
type UntrustedError struct {
	Path    string
	Project string
	Digest  string // the binary's digest now, when it changed
	Changed bool
}

// Error says why the binary did not run and how to let it.
func (e *UntrustedError) Error() string {
	how := fmt.Sprintf("if you trust it, run `nous plugins trust` in %s (or pin its sha256 in rules outside the project; in CI set %s=1)", e.Project, EnvTrustProject)
	if e.Changed {
		return fmt.Sprintf("not running project plugin %s: it changed since you trusted it (sha256 now %s); check the change, then %s", e.Path, e.Digest, how)
	}
	return fmt.Sprintf("not running project plugin %s: plugin binaries that come with a project run only once you trust them; %s", e.Path, how)
}

// defaultTrustFile is the trust list in the user's config directory
// ($XDG_CONFIG_HOME/nous, else ~/.config/nous on Unix).
func defaultTrustFile(getenv func(string) string) (string, error) {
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" && runtime.GOOS != "plan9" {
		if dir := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
			return filepath.Join(dir, "nous", trustFileName), nil
		}
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, ".config", "nous", trustFileName), nil
		}
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding where to keep trusted plugins: %w", err)
	}
	return filepath.Join(dir, "nous", trustFileName), nil
}

// readTrust reads the trust list; a missing file is an empty list.
func readTrust(path string) (trustList, error) {
	list := trustList{Version: 1, Projects: map[string]map[string]string{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return list, nil
	}
	if err != nil {
		return list, fmt.Errorf("reading trusted plugins: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTrustFile+1))
	switch {
	case err != nil:
		return list, fmt.Errorf("reading trusted plugins %s: %w", path, err)
	case len(data) > maxTrustFile:
		return list, fmt.Errorf("trusted plugins %s is larger than %d MiB; remove entries you no longer need", path, maxTrustFile>>20)
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return list, fmt.Errorf("trusted plugins %s: not the JSON nous writes (%w); delete it and trust again", path, err)
	}
	if list.Projects == nil {
		list.Projects = map[string]map[string]string{}
	}
	return list, nil
}

// writeTrust replaces the trust list atomically, readable by this user only.
func writeTrust(path string, list trustList) error {
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("writing trusted plugins: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), trustFileName+".*")
	if err != nil {
		return fmt.Errorf("writing trusted plugins: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing trusted plugins %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing trusted plugins %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing trusted plugins %s: %w", path, err)
	}
	return nil
}

// consent decides whether the project-local binary behind spec may run:
// it returns the digest the user trusted (which the binary must still
// have), "" when no trust is needed, or an UntrustedError.
func (m *Manager) consent(spec Spec, l launch) (string, error) {
	if !m.projectLocal(spec, l) || m.trustProject {
		return "", nil
	}
	if spec.SHA256 != "" && !spec.FromProject {
		return "", nil // a pin in the user's own rules vouches for it
	}
	list, err := readTrust(m.trustFile)
	if err != nil {
		return "", err
	}
	if d, ok := list.Projects[m.projectDir][l.Path]; ok {
		return d, nil
	}
	return "", &UntrustedError{Path: l.Path, Project: m.projectDir}
}

// projectLocal reports whether the binary behind spec comes with the
// project: found in its .nous/plugins, or named by path in rules that are
// themselves the project's.
func (m *Manager) projectLocal(spec Spec, l launch) bool {
	if l.Builtin {
		return false
	}
	if l.Project {
		return true
	}
	return spec.FromProject && isPathRef(spec.Ref)
}

// Trust records the plugin binaries at paths (a directory stands for its
// nous-plugin-* binaries; none means the project's own: those in its
// .nous/plugins and those its rules name by path, from specs) as trusted
// for this project, with their sha256, and returns them.
func (m *Manager) Trust(paths []string, specs []Spec) ([]Trusted, error) {
	var bins []string
	if len(paths) == 0 {
		bins = m.projectBinaries(specs)
		if len(bins) == 0 {
			return nil, fmt.Errorf("project %s has no plugin binaries to trust (none in %s, none named by path in its rules)", m.projectDir, m.projectPluginDir())
		}
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("trusting %s: %w", p, err)
		}
		if !fi.IsDir() {
			bins = append(bins, abs)
			continue
		}
		found := binariesIn(abs)
		if len(found) == 0 {
			return nil, fmt.Errorf("trusting %s: it holds no executable %sNAME binaries", p, BinaryPrefix)
		}
		bins = append(bins, found...)
	}
	list, err := readTrust(m.trustFile)
	if err != nil {
		return nil, err
	}
	entry := list.Projects[m.projectDir]
	if entry == nil {
		entry = map[string]string{}
		list.Projects[m.projectDir] = entry
	}
	var out []Trusted
	for _, b := range bins {
		if err := checkExecutable(b); err != nil {
			return nil, err
		}
		if err := checkOwnership(b); err != nil {
			return nil, err
		}
		sum, err := FileSHA256(b)
		if err != nil {
			return nil, fmt.Errorf("trusting %s: %w", b, err)
		}
		entry[b] = sum
		out = append(out, Trusted{Path: b, SHA256: sum})
	}
	if err := writeTrust(m.trustFile, list); err != nil {
		return nil, err
	}
	return out, nil
}

// projectBinaries lists the binaries this project would run: those in its
// .nous/plugins and those its rules name by path.
func (m *Manager) projectBinaries(specs []Spec) []string {
	bins := binariesIn(m.projectPluginDir())
	for _, s := range specs {
		if !s.FromProject || !isPathRef(s.Ref) {
			continue
		}
		if l, err := m.resolver.resolve(s.Ref); err == nil && !slices.Contains(bins, l.Path) {
			bins = append(bins, l.Path)
		}
	}
	return bins
}

// binariesIn lists the executable nous-plugin-* files in dir, sorted.
func binariesIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), BinaryPrefix) && !e.IsDir() {
			p := filepath.Join(dir, e.Name())
			if checkExecutable(p) == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// isPathRef reports whether ref names a binary by path.
func isPathRef(ref string) bool {
	return !strings.HasPrefix(ref, builtinPrefix) && strings.ContainsAny(ref, `/`+string(filepath.Separator))
}

// projectPluginDir is the project's .nous/plugins.
func (m *Manager) projectPluginDir() string { return m.resolver.projectDir }
