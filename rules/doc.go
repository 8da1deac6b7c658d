// Package rules loads nous rule files (HCL native or JSON syntax) into a
// compiled, immutable Ruleset, in three stages that load.go wires:
// parse (parse.go), decode (decode*.go: blocks into typed values, with
// conditions handed to rules/cond) and compile (compile.go: names resolved
// across files, defaults that depend on other blocks, the index). Every
// problem is an hcl.Diagnostic that carries its file, line and column.
package rules
