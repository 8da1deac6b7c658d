package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
)

// loadRules loads the rules every command works with: --rules FILE|DIR, else
// ./nous.hcl, else ./.nous/*.hcl, else the embedded default rules. Load
// errors are printed with source snippets and exit 2; warnings are printed.
func (a *app) loadRules() (*rules.Ruleset, error) {
	rs, diags, _, err := a.readRules()
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 {
		a.printDiagnostics(diags, rs.Files())
	}
	if diags.HasErrors() {
		return nil, &exitError{Code: exitUsage}
	}
	return rs, nil
}

// readRules loads the rules where rulesLocation finds them, and says
// where: "" for the embedded defaults.
func (a *app) readRules() (rs *rules.Ruleset, diags hcl.Diagnostics, path string, err error) {
	if path, err = a.rulesLocation(); err != nil {
		return nil, nil, "", err
	}
	opts := []rules.Option{rules.WithLookupEnv(a.lookupEnv)}
	if path == "" {
		rs, diags = rules.LoadFS(examples.DefaultRules(), opts...)
	} else {
		rs, diags = rules.Load(path, opts...)
	}
	return rs, diags, path, nil
}

// rulesLocation returns the rules path to load, or "" for the embedded defaults.
func (a *app) rulesLocation() (string, error) {
	if a.rulesPath != "" {
		if _, err := os.Stat(a.rulesPath); err != nil {
			return "", usageError("--rules: %v", err)
		}
		return a.rulesPath, nil
	}
	if _, err := os.Stat("nous.hcl"); err == nil {
		return "nous.hcl", nil
	}
	matches, err := filepath.Glob(filepath.Join(".nous", "*.hcl"))
	if err != nil {
		return "", fmt.Errorf("finding rules: %w", err)
	}
	if len(matches) > 0 {
		return ".nous", nil
	}
	return "", nil
}

// lookupEnv reads the environment through the app's getenv, so tests can
// inject one; an empty value counts as unset.
func (a *app) lookupEnv(name string) (string, bool) {
	if a.getenv == nil {
		return os.LookupEnv(name)
	}
	v := a.getenv(name)
	return v, v != ""
}
