package main

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/nous-dev/nous"

// goList maps each package of the module to its imports (or, with deps, to
// every package it depends on), as `go list` reports them.
func goList(t *testing.T, deps bool) map[string][]string {
	t.Helper()
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	args := []string{"list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module + "/..."}
	if deps {
		args = []string{"list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module + "/..."}
	}
	if _, err := os.Stat(gobin); err != nil {
		t.Skipf("no go command at %s: %v", gobin, err)
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = "../.." // the module root
	out, err := cmd.Output()
	require.NoError(t, err, "go list")
	pkgs := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		pkgs[strings.TrimPrefix(fields[0], module+"/")] = fields[1:]
	}
	require.NoError(t, sc.Err())
	require.Contains(t, pkgs, "engine/runner", "go list found the module's packages")
	return pkgs
}

// under reports whether pkg is dir or below it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// own is the module-relative path of imp, or "" outside the module.
func own(imp string) string {
	if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
		return rel
	}
	if imp == module {
		return "."
	}
	return ""
}

// frontEnd reports whether pkg is one of the protocols `nous serve`
// answers beside its API.
func frontEnd(pkg string) bool { return pkg == "engine/nlweb" || pkg == "engine/mcptools" }

// TestLayers checks the import graph the README's Layout section draws:
// data flows one way, rules → plan → run, and the light packages stay light.
func TestLayers(t *testing.T) {
	imports := goList(t, false)
	rules := []struct {
		name  string
		from  func(pkg string) bool
		allow func(imp string) bool // imp is module-relative
	}{
		{"the engine never imports the plugin host or the plugins",
			func(p string) bool { return under(p, "engine") },
			func(i string) bool { return !under(i, "plugin") && !under(i, "plugins") }},
		{"the runner imports no rules package but the condition language",
			func(p string) bool { return under(p, "engine/runner") },
			func(i string) bool { return !under(i, "rules") || i == "rules/cond" }},
		{"rules import nothing of the engine but its graph algorithms",
			func(p string) bool { return under(p, "rules") },
			func(i string) bool { return !under(i, "engine") || i == "engine/graph" }},
		{"the graph and the condition language are leaves",
			func(p string) bool { return p == "engine/graph" || p == "rules/cond" },
			func(i string) bool { return false }},
		{"sdk imports nothing of nous but sdk",
			func(p string) bool { return under(p, "sdk") },
			func(i string) bool { return under(i, "sdk") }},
		{"plugins are built like any author's: on sdk alone",
			func(p string) bool { return under(p, "plugins") },
			func(i string) bool { return under(i, "sdk") || under(i, "plugins") }},
		{"the server runs questions through engine/ask and knows no plugin",
			func(p string) bool { return under(p, "engine/server") },
			func(i string) bool {
				return slices.Contains([]string{"engine", "engine/ask", "engine/runner", "engine/report", "engine/render",
					"engine/history", "engine/session", "engine/server/viewer", "rules", "sdk/redact"}, i)
			}},
		{"only the CLI and the server's front ends import the server",
			func(p string) bool { return p != "cmd/nous" && !under(p, "engine/server") && !frontEnd(p) },
			func(i string) bool { return !under(i, "engine/server") }},
		{"a front end is an adapter over the server: it runs nothing itself",
			// MCP's tools fetch and lint too: their rule follows.
			func(p string) bool { return frontEnd(p) && p != "engine/mcptools" },
			func(i string) bool {
				return slices.Contains([]string{"engine/server", "engine/report", "engine/runner"}, i)
			}},
		{"the MCP tools call the server; fetch and lint read sources and rules as the commands do",
			func(p string) bool { return p == "engine/mcptools" },
			func(i string) bool {
				return slices.Contains([]string{"engine", "engine/server", "engine/runner", "engine/render",
					"rules", "rules/lint", "rules/report", "sdk", "sdk/timerange"}, i)
			}},
		{"the plugin host knows the protocol only through sdk/host",
			func(p string) bool { return under(p, "plugin") },
			func(i string) bool { return under(i, "plugin") || i == "sdk" || i == "sdk/host" || i == "sdk/redact" }},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			for _, pkg := range slices.Sorted(maps.Keys(imports)) {
				if !r.from(pkg) || strings.HasSuffix(pkg, "_test") {
					continue
				}
				for _, imp := range imports[pkg] {
					if rel := own(imp); rel != "" && rel != pkg && !r.allow(rel) {
						assert.Failf(t, "wrong-way import", "%s imports %s", pkg, rel)
					}
				}
			}
		})
	}
}

// TestGraphIsStandardLibraryOnly keeps the graph algorithms importable by
// rules, the planner and the runner alike.
func TestGraphIsStandardLibraryOnly(t *testing.T) {
	for _, imp := range goList(t, false)["engine/graph"] {
		first, _, _ := strings.Cut(imp, "/")
		assert.NotContains(t, first, ".", "engine/graph imports %s", imp)
	}
}

// TestLightPackagesPullNoTransport keeps gRPC, protobuf and go-plugin out of
// what rules, redaction, time ranges and the author's types depend on.
func TestLightPackagesPullNoTransport(t *testing.T) {
	deps := goList(t, true)
	heavy := []string{"google.golang.org/grpc", "google.golang.org/protobuf", "github.com/hashicorp/go-plugin"}
	for _, pkg := range []string{"sdk", "sdk/redact", "sdk/timerange", "sdk/config", "rules", "rules/cond"} {
		require.Contains(t, deps, pkg)
		for _, d := range deps[pkg] {
			for _, h := range heavy {
				assert.False(t, under(d, h), "%s depends on %s", pkg, d)
			}
		}
	}
}

// TestTemporalOnlyWhereAskedFor keeps the Temporal SDK in engine/durable:
// the planner, the in-memory executor, the server and the nous binary as
// built by default (without the temporal tag) do without it.
func TestTemporalOnlyWhereAskedFor(t *testing.T) {
	deps := goList(t, true)
	require.Contains(t, deps, "engine/durable")
	for _, pkg := range slices.Sorted(maps.Keys(deps)) {
		if under(pkg, "engine/durable") || strings.HasSuffix(pkg, "_test") {
			continue
		}
		for _, d := range deps[pkg] {
			assert.False(t, under(d, "go.temporal.io"), "%s depends on %s", pkg, d)
		}
	}
}
