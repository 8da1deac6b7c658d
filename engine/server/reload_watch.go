package server

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/nous-dev/nous/rules"
)

// watched are the rules files and directories a Reloader watches, by
// absolute path. Editors that save by renaming a new file over the old one
// replace the file a watch would follow, so the watch is on their parent
// directories, and an event counts when it names a watched file or a rules
// file in a watched directory.
type watched struct {
	files map[string]bool
	dirs  map[string]bool
}

// watchedOf sorts paths into files and directories.
func watchedOf(paths []string) (watched, error) {
	w := watched{files: map[string]bool{}, dirs: map[string]bool{}}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return watched{}, fmt.Errorf("watching the rules at %s: %w", p, err)
		}
		info, err := os.Stat(abs)
		if err != nil {
			return watched{}, fmt.Errorf("watching the rules: %w", err)
		}
		if info.IsDir() {
			w.dirs[abs] = true
		} else {
			w.files[abs] = true
		}
	}
	return w, nil
}

// watchedOfLenient sorts paths into files and directories, leaving out,
// with the error, those that cannot be found.
func watchedOfLenient(paths []string) (watched, []error) {
	w := watched{files: map[string]bool{}, dirs: map[string]bool{}}
	var errs []error
	for _, p := range paths {
		one, err := watchedOf([]string{p})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		maps.Copy(w.files, one.files)
		maps.Copy(w.dirs, one.dirs)
	}
	return w, errs
}

// parents are the directories to watch, sorted.
func (w watched) parents() []string {
	set := map[string]bool{}
	for f := range w.files {
		set[filepath.Dir(f)] = true
	}
	for d := range w.dirs {
		set[d] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// relevant reports whether an event on name can change the rules.
func (w watched) relevant(name string) bool {
	return w.files[name] || (w.dirs[filepath.Dir(name)] && rules.IsFile(filepath.Base(name)))
}
