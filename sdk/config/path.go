package config

import "path/filepath"

// RelativeTo resolves p, a path written in a rules file, against dir, the
// rules file's directory (sdk.ConfigDir), so rules mean the same files
// from any working directory. An absolute p, an empty p and an empty dir
// (rules that are not files: the working directory is meant) leave p as is.
func RelativeTo(dir, p string) string {
	if p == "" || dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
