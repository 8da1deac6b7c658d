// Package rules loads nous rule files (HCL native or JSON syntax) into a
// compiled, immutable Ruleset: decode → check → compile, with every problem
// reported as an hcl.Diagnostic that carries its file, line and column.
package rules
