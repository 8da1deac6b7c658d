package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/plugins"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// envLogLevel sets the level of nous's and its plugins' logs on stderr.
const envLogLevel = "NOUS_LOG_LEVEL"

// newManager returns a plugin manager for the ruleset's sources and agents,
// masking with red. Plugins start on first use; the caller must Close it
// (withPlugins does).
func (a *app) newManager(rs *rules.Ruleset, red *redact.Redactor) (*plugin.Manager, error) {
	specs, err := pluginSpecs(rs)
	if err != nil {
		return nil, err
	}
	return plugin.NewManager(a.pluginOptions(red), specs...)
}

// pluginOptions are the manager options the CLI runs with.
func (a *app) pluginOptions(red *redact.Redactor) plugin.Options {
	return plugin.Options{
		Dirs:     a.pluginDirs,
		Logger:   a.pluginLogger(),
		Redactor: red,
		Builtins: plugins.Names(),
		Getenv:   a.getenv,
	}
}

// fromProject reports whether the rules file lies in the working directory
// tree: the project's own rules, whose path references and pins cannot
// vouch for the project's binaries.
func fromProject(rulesFile string) bool {
	if rulesFile == "" {
		return false
	}
	if _, err := os.Stat(rulesFile); err != nil {
		return false // embedded rules
	}
	abs, err := filepath.Abs(rulesFile)
	if err != nil {
		return true
	}
	wd, err := os.Getwd()
	if err != nil {
		return true
	}
	rel, err := filepath.Rel(wd, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// pluginLogger logs to stderr at $NOUS_LOG_LEVEL (warn by default).
func (a *app) pluginLogger() hclog.Logger {
	level := hclog.Warn
	if a.getenv != nil {
		if l := hclog.LevelFromString(a.getenv(envLogLevel)); l != hclog.NoLevel {
			level = l
		}
	}
	return hclog.New(&hclog.LoggerOptions{Name: "nous", Output: a.stderr, Level: level})
}

// withPlugins runs fn with a plugin manager for rs, masking with red, and a
// context that SIGINT and SIGTERM cancel; every plugin process is stopped
// before it returns, however fn ends.
func (a *app) withPlugins(ctx context.Context, rs *rules.Ruleset, red *redact.Redactor, fn func(context.Context, *plugin.Manager) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	m, err := a.newManager(rs, red)
	if err != nil {
		return err
	}
	defer m.Close()
	return fn(ctx, m)
}

// pluginSpecs turns the ruleset's source and agent blocks into specs.
func pluginSpecs(rs *rules.Ruleset) ([]plugin.Spec, error) {
	var specs []plugin.Spec
	for _, s := range rs.Sources {
		sp, err := blockSpec(plugin.KindSource, s.Name, s.Plugin, s.SHA256, s.Config, s.Range)
		if err != nil {
			return nil, err
		}
		sp.Setup, sp.RecordKind = s.Setup, s.Kind
		specs = append(specs, sp)
	}
	for _, ag := range rs.Agents {
		sp, err := blockSpec(plugin.KindAgent, ag.Name, ag.Plugin, ag.SHA256, ag.Config, ag.Range)
		if err != nil {
			return nil, err
		}
		sp.Timeout = ag.Timeout
		specs = append(specs, sp)
		if ag.Fallback != "" {
			// The fallback gets no config: the agent's is for its own plugin.
			fb, err := blockSpec(plugin.KindAgent, ag.Name+ask.FallbackSuffix, ag.Fallback, "", nil, ag.Range)
			if err != nil {
				return nil, err
			}
			fb.Timeout = ag.Timeout
			specs = append(specs, fb)
		}
	}
	return specs, nil
}

// blockSpec is the spec of one source or agent block: its config as JSON,
// its plugin reference resolved against the rules file that names it.
func blockSpec(kind plugin.Kind, name, ref, sha256 string, config map[string]any, rng hcl.Range) (plugin.Spec, error) {
	raw, err := json.Marshal(nonNil(config))
	if err != nil {
		return plugin.Spec{}, fmt.Errorf("%s: %s %q: config: %w", rng, kind, name, err)
	}
	return plugin.Spec{Name: name, Kind: kind, Ref: pluginRef(ref, rng.Filename), SHA256: sha256, Config: raw, FromProject: fromProject(rng.Filename), ConfigDir: configDir(rng.Filename)}, nil
}

// configDir is the absolute directory of rulesFile, against which the
// plugin resolves relative paths in its config; "" for embedded rules,
// whose paths are relative to the working directory.
func configDir(rulesFile string) string {
	if rulesFile == "" {
		return ""
	}
	if _, err := os.Stat(rulesFile); err != nil {
		return ""
	}
	dir, err := filepath.Abs(filepath.Dir(rulesFile))
	if err != nil {
		return ""
	}
	return dir
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// pluginRef resolves a relative plugin path against the directory of the
// rules file that names it, so rules work from any working directory.
// Built-ins, plugin names and absolute paths are left alone.
func pluginRef(ref, rulesFile string) string {
	if strings.HasPrefix(ref, "builtin:") || filepath.IsAbs(ref) || !strings.ContainsAny(ref, `/\`) || rulesFile == "" {
		return ref
	}
	if _, err := os.Stat(rulesFile); err != nil {
		return ref // embedded rules: relative to the working directory
	}
	joined := filepath.Join(filepath.Dir(rulesFile), ref)
	if !strings.ContainsRune(joined, filepath.Separator) {
		joined = "." + string(filepath.Separator) + joined // still a path, not a plugin name
	}
	return joined
}
