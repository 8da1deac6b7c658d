package session

import (
	"errors"
	"path/filepath"
	"runtime"
)

// EnvDir overrides the directory sessions are kept in.
const EnvDir = "NOUS_SESSION_DIR"

// Dir is where sessions are kept: $NOUS_SESSION_DIR; else on Windows
// %LocalAppData%\nous\sessions, on macOS ~/Library/Application
// Support/nous/sessions, elsewhere $XDG_STATE_HOME/nous/sessions or
// ~/.local/state/nous/sessions. lookupEnv reads the environment.
func Dir(lookupEnv func(string) (string, bool)) (string, error) {
	if d, ok := lookupEnv(EnvDir); ok && d != "" {
		return d, nil
	}
	switch runtime.GOOS {
	case "windows":
		if d, ok := lookupEnv("LocalAppData"); ok && d != "" {
			return filepath.Join(d, "nous", "sessions"), nil
		}
		return "", errors.New("%LocalAppData% is not set; set " + EnvDir)
	case "darwin", "ios":
		if h, ok := lookupEnv("HOME"); ok && h != "" {
			return filepath.Join(h, "Library", "Application Support", "nous", "sessions"), nil
		}
	default:
		if d, ok := lookupEnv("XDG_STATE_HOME"); ok && filepath.IsAbs(d) {
			return filepath.Join(d, "nous", "sessions"), nil
		}
		if h, ok := lookupEnv("HOME"); ok && h != "" {
			return filepath.Join(h, ".local", "state", "nous", "sessions"), nil
		}
	}
	return "", errors.New("$HOME is not set; set " + EnvDir)
}
