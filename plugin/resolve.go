package plugin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// BinaryPrefix is the file name prefix of external plugin binaries:
// the plugin "jsonl" is the binary nous-plugin-jsonl.
const BinaryPrefix = "nous-plugin-"

// builtinPrefix marks a reference to a plugin compiled into nous itself.
const builtinPrefix = "builtin:"

// EnvPluginDir names the environment variable holding extra plugin
// directories, separated like PATH.
const EnvPluginDir = "NOUS_PLUGIN_DIR"

// SearchPath lists the directories searched for nous-plugin-NAME binaries,
// in order: dirs (from --plugin-dir), $NOUS_PLUGIN_DIR, ./.nous/plugins,
// ~/.nous/plugins. getenv nil means os.Getenv.
func SearchPath(dirs []string, getenv func(string) string) []string {
	if getenv == nil {
		getenv = os.Getenv
	}
	path := slices.Clone(dirs)
	for _, d := range filepath.SplitList(getenv(EnvPluginDir)) {
		if d != "" {
			path = append(path, d)
		}
	}
	path = append(path, filepath.Join(".nous", "plugins"))
	if user := userPluginDir(getenv); user != "" {
		path = append(path, user)
	}
	return path
}

// userPluginDir is ~/.nous/plugins, "" when there is no home directory.
func userPluginDir(getenv func(string) string) string {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".nous", "plugins")
}

// launch is how to start the process behind a plugin reference.
type launch struct {
	Path    string   // the executable that runs (and that a sha256 pin applies to)
	Args    []string // arguments after the executable
	Builtin bool
	Project bool // found in the project's .nous/plugins
}

// resolver turns plugin references into launches.
type resolver struct {
	dirs       []string // search path for plugin names
	executable string   // the nous binary that serves builtin: plugins
	builtins   []string // known built-in names; nil means unchecked
	projectDir string   // absolute: the project's .nous/plugins
	userDir    string   // absolute: ~/.nous/plugins, which is never the project's
}

// resolve finds the executable behind ref: "builtin:NAME", a plugin name
// (nous-plugin-NAME in the search path), or a path to a binary.
func (r *resolver) resolve(ref string) (launch, error) {
	switch {
	case ref == "":
		return launch{}, errors.New("no plugin reference given")
	case strings.HasPrefix(ref, builtinPrefix):
		return r.resolveBuiltin(strings.TrimPrefix(ref, builtinPrefix))
	case strings.ContainsRune(ref, '/') || strings.ContainsRune(ref, filepath.Separator):
		return r.resolvePath(ref)
	default:
		return r.resolveName(ref)
	}
}

func (r *resolver) resolveBuiltin(name string) (launch, error) {
	if r.builtins != nil && !slices.Contains(r.builtins, name) {
		return launch{}, fmt.Errorf("no built-in plugin %q; built-ins are: %s", name, strings.Join(r.builtins, ", "))
	}
	exe := r.executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return launch{}, fmt.Errorf("finding the nous binary to serve builtin:%s: %w", name, err)
		}
	}
	return launch{Path: exe, Args: []string{"plugin", "serve", name}, Builtin: true}, nil
}

func (r *resolver) resolvePath(path string) (launch, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return launch{}, fmt.Errorf("plugin path %s: %w", path, err)
	}
	if err := checkExecutable(abs); err != nil {
		return launch{}, err
	}
	dir := filepath.Dir(abs)
	project := r.projectDir != "" && dir == r.projectDir && dir != r.userDir
	return launch{Path: abs, Project: project}, nil
}

func (r *resolver) resolveName(name string) (launch, error) {
	file := BinaryPrefix + name
	for _, dir := range r.dirs {
		candidate := filepath.Join(dir, file)
		if _, err := os.Stat(candidate); err != nil {
			continue
		}
		return r.resolvePath(candidate)
	}
	return launch{}, fmt.Errorf("no plugin %q: looked for %s in %s (add --plugin-dir, set $%s, or give a path)",
		name, file, strings.Join(r.dirs, ", "), EnvPluginDir)
}

// checkExecutable explains why path cannot run as a plugin, if it cannot.
func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("plugin binary %s: %w", path, err)
	case fi.IsDir():
		return fmt.Errorf("plugin binary %s is a directory", path)
	case fi.Mode()&0o111 == 0:
		return fmt.Errorf("plugin binary %s is not executable (chmod +x it)", path)
	}
	return nil
}
