package rules

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// Check names: the stable identifiers of every kind of finding. They appear in
// lint output (SARIF rule ids, JSON "check") and in nous-lint-ignore comments.
const (
	CheckSyntax             = "syntax"              // the file does not parse
	CheckSchema             = "schema"              // unknown, missing or repeated block or attribute
	CheckType               = "type"                // a value of the wrong type
	CheckInvalidValue       = "invalid-value"       // a value outside its allowed set (pattern, op, duration, …)
	CheckExpr               = "expr"                // an expr condition that does not compile or is not bool
	CheckRegexp             = "regexp"              // an entity pattern that is not a valid Go regexp
	CheckTemplate           = "template"            // a prompt template that does not parse
	CheckUnknownReference   = "unknown-reference"   // a name that refers to nothing
	CheckDuplicateName      = "duplicate-name"      // two definitions with the same name
	CheckOutOfRange         = "out-of-range"        // a threshold outside its allowed range
	CheckCycle              = "cycle"               // a dependency cycle inside an intent template
	CheckUnused             = "unused"              // a source, agent or entity nothing refers to
	CheckUnreachable        = "unreachable"         // a definition that can never take effect
	CheckMissingDescription = "missing-description" // a hypothesis or retrieve without description
	CheckConstantCondition  = "constant-condition"  // a condition that is always true or always false
	CheckRegexEscape        = "regex-escape"        // a regex literal holding a control character expr decoded from an escape
	CheckPluginConfig       = "plugin-config"       // a plugin refused its config block, or did not start (lint --plugins)
	CheckChangesQuestion    = "changes-question"    // a refinement that answers another question (drops the asked period)
	CheckFixedFilter        = "fixed-filter"        // a filter one retrieve fixes while another of its intent takes it from the question
	CheckDepthLevels        = "depth-levels"        // depth levels that skip a number, or a when that can never choose or always chooses its level
)

// Finding is the value nous stores in hcl.Diagnostic.Extra: the name of the
// check that produced the diagnostic.
type Finding struct {
	Check string
}

// CheckName returns the check name carried by a diagnostic, or "" when it
// carries none.
func CheckName(d *hcl.Diagnostic) string {
	if d == nil {
		return ""
	}
	if f, ok := hcl.DiagnosticExtra[Finding](d); ok {
		return f.Check
	}
	return ""
}

// tag sets the check name on every diagnostic of diags that has none yet.
func tag(diags hcl.Diagnostics, check string) hcl.Diagnostics {
	for _, d := range diags {
		if CheckName(d) == "" {
			d.Extra = Finding{Check: check}
		}
	}
	return diags
}

// diag builds one diagnostic with a check name.
func diag(sev hcl.DiagnosticSeverity, check string, subject hcl.Range, summary, detail string) *hcl.Diagnostic {
	r := subject
	return &hcl.Diagnostic{Severity: sev, Summary: summary, Detail: detail, Subject: &r, Extra: Finding{Check: check}}
}

// Warning builds a warning diagnostic with a check name; lint uses it.
func Warning(check string, subject hcl.Range, summary, detail string) *hcl.Diagnostic {
	return diag(hcl.DiagWarning, check, subject, summary, detail)
}

// Error builds an error diagnostic with a check name; lint uses it.
func Error(check string, subject hcl.Range, summary, detail string) *hcl.Diagnostic {
	return diag(hcl.DiagError, check, subject, summary, detail)
}

// CheckInfo describes one check for documentation and SARIF rule metadata.
type CheckInfo struct {
	Name     string
	Severity hcl.DiagnosticSeverity
	Help     string // what it catches
}

// Checks lists every check with its severity, in documentation order.
var Checks = []CheckInfo{
	{CheckSyntax, hcl.DiagError, "The file is not valid HCL (native or JSON syntax), or cannot be read."},
	{CheckSchema, hcl.DiagError, "An unknown, missing or repeated block or attribute."},
	{CheckType, hcl.DiagError, "A value of the wrong type, or an env() call with wrong arguments."},
	{CheckInvalidValue, hcl.DiagError, "A value outside its allowed set: pattern, op, on_fail, role, duration, sha256, INTENT.HYPOTHESIS (a warning for an unknown hypothesis action or an agent step without agent or role)."},
	{CheckExpr, hcl.DiagError, "A condition that does not parse, does not type-check against its environment, is not bool, or is too large."},
	{CheckRegexp, hcl.DiagError, "An entity pattern that is not a valid Go regular expression."},
	{CheckTemplate, hcl.DiagError, "A prompt template that is not a valid text/template."},
	{CheckUnknownReference, hcl.DiagError, "A source, agent, intent, hypothesis or mode name that is not defined."},
	{CheckDuplicateName, hcl.DiagError, "Two blocks of the same kind with the same name, or a repeated single block."},
	{CheckOutOfRange, hcl.DiagError, "confidence or min_confidence outside [0, 1], a negative priority, tier or limit, a loop value below 1."},
	{CheckCycle, hcl.DiagError, "A dependency cycle among the hypotheses of one intent template."},
	{CheckUnused, hcl.DiagWarning, "A source no retrieve uses, an agent the executor never calls, an entity no filter uses, a prompt for a role no hypothesis takes."},
	{CheckUnreachable, hcl.DiagWarning, "A definition that can never take effect: a condition that is always false, a detect below min_confidence."},
	{CheckMissingDescription, hcl.DiagWarning, "A hypothesis or retrieve without a description (it is what the plan shows)."},
	{CheckConstantCondition, hcl.DiagWarning, "A condition that is always true (redundant) or always false where that is not unreachability."},
	{CheckRegexEscape, hcl.DiagWarning, "A regex literal (right of matches) holding a control character: expr decoded an escape meant for the regexp ('\\b' is a backspace, not a word boundary)."},
	{CheckChangesQuestion, hcl.DiagWarning, "A refine block that drops the dates filter: the retried step answers for the whole history, and the report would present it as the asked period's answer (use nearest = \"before\")."},
	{CheckDepthLevels, hcl.DiagWarning, "Depth levels that skip a number (re-assessment moves one defined level at a time), a when on the floor (never evaluated), a when that is always false (the level is reached only by re-assessment) or always true (the levels below are never chosen), a profile block without depth levels."},
	{CheckPluginConfig, hcl.DiagError, "With --plugins: a source or agent plugin that does not start, or whose Configure rejects its config (its warnings are warnings)."},
}

// SortDiagnostics orders diagnostics by file, line and column, keeping the
// order of equal positions.
func SortDiagnostics(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a != nil && b == nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		case a.Start.Line != b.Start.Line:
			return a.Start.Line < b.Start.Line
		default:
			return a.Start.Column < b.Start.Column
		}
	})
}
