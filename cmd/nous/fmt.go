package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/report"
	"github.com/spf13/cobra"
)

func (a *app) fmtCommand() *cobra.Command {
	var check, write bool
	cmd := &cobra.Command{
		Use:   "fmt [PATHS...]",
		Short: "Rewrite rule files in canonical HCL layout",
		Long: `Fmt formats .hcl rule files (native syntax; directories recurse, default ".").
"-" formats standard input to standard output.

Without flags it prints the formatted files (several files each under a
"==> NAME <==" header). -check lists the files that are not formatted and
exits 1 if there is any; -w rewrites them in place and lists them.

A file that does not parse is never rewritten: its errors are printed and
fmt exits 2.`,
		// Flags are parsed here so that the single-dash spelling of the
		// CLI contract (-check, -w) works besides --check and --write.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmd.Flags().Parse(singleDashLong(args)); err != nil {
				return usageError("%v", err)
			}
			if help, _ := cmd.Flags().GetBool("help"); help {
				return cmd.Help()
			}
			paths := cmd.Flags().Args()
			if check && write {
				return usageError("-check and -w exclude each other")
			}
			if len(paths) == 0 {
				paths = []string{"."}
			}
			if len(paths) == 1 && paths[0] == "-" {
				if write {
					return usageError("-w cannot rewrite standard input")
				}
				return a.fmtStdin(check)
			}
			files, err := hclFiles(paths)
			if err != nil {
				return err
			}
			return a.fmtFiles(files, check, write)
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "list unformatted files and exit 1 if any")
	cmd.Flags().BoolVarP(&write, "write", "w", false, "rewrite unformatted files in place")
	cmd.Flags().BoolP("help", "h", false, "help for fmt")
	return cmd
}

// singleDashLong turns "-check" into "--check" (and "-write", "-help"),
// leaving "-", "-w" and arguments after "--" alone.
func singleDashLong(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if a == "--" {
			copy(out[i:], args[i:])
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(name) > 1 {
			out[i] = "-" + a
		}
	}
	return out
}

func (a *app) fmtFiles(files []string, check, write bool) error {
	broken, changed := false, false
	for _, name := range files {
		src, err := rules.ReadSource(name)
		if err != nil {
			return usageError("%v", err)
		}
		out, diags := rules.Format(name, src)
		if diags.HasErrors() {
			a.printDiagnostics(diags, map[string]*hcl.File{name: {Bytes: src}})
			broken = true
			continue
		}
		differs := !bytes.Equal(src, out)
		changed = changed || differs
		switch {
		case check:
			if differs {
				fmt.Fprintln(a.stdout, name)
			}
		case write:
			if differs {
				if err := writeKeepingMode(name, out); err != nil {
					return usageError("%v", err)
				}
				fmt.Fprintln(a.stdout, name)
			}
		default:
			if len(files) > 1 {
				fmt.Fprintf(a.stdout, "==> %s <==\n", name)
			}
			if _, err := a.stdout.Write(out); err != nil {
				return fmt.Errorf("fmt: writing output: %w", err)
			}
		}
	}
	switch {
	case broken:
		return &exitError{Code: exitUsage}
	case check && changed:
		return findings()
	}
	return nil
}

// fmtStdin prints standard input formatted or, with check, lists it as
// "<stdin>" and fails when it is not formatted.
func (a *app) fmtStdin(check bool) error {
	src, err := rules.ReadSourceFrom("<stdin>", a.stdin)
	if err != nil {
		return usageError("reading standard input: %v", err)
	}
	out, diags := rules.Format("<stdin>", src)
	if diags.HasErrors() {
		a.printDiagnostics(diags, map[string]*hcl.File{"<stdin>": {Bytes: src}})
		return &exitError{Code: exitUsage}
	}
	if check {
		if bytes.Equal(src, out) {
			return nil
		}
		fmt.Fprintln(a.stdout, "<stdin>")
		return findings()
	}
	_, err = a.stdout.Write(out)
	return err
}

// printDiagnostics prints diags on stderr in order, with snippets of files.
func (a *app) printDiagnostics(diags hcl.Diagnostics, files map[string]*hcl.File) {
	rules.SortDiagnostics(diags)
	_ = report.Write(a.stderr, "text", report.Input{Diagnostics: diags, Files: files})
}

// writeKeepingMode replaces a file's content, keeping its permissions.
func writeKeepingMode(name string, content []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	return os.WriteFile(name, content, info.Mode().Perm())
}

// hclFiles expands paths into .hcl files: files as given, directories
// walked recursively (skipping .git), in lexical order.
func hclFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, usageError("%v", err)
		}
		if !info.IsDir() {
			if strings.HasSuffix(p, ".json") {
				return nil, usageError("%s: fmt formats native HCL syntax only", p)
			}
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case e.IsDir() && e.Name() == ".git":
				return filepath.SkipDir
			case !e.IsDir() && strings.HasSuffix(path, ".hcl"):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, usageError("%v", err)
		}
	}
	return files, nil
}
