package lint

import (
	"fmt"
	"unicode"

	"github.com/expr-lang/expr/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// regexEscapes reports regex literals (the right side of matches) holding
// a control character. The string passes two unescapings before the regexp
// sees it, HCL's and expr's: "\\b" in a quoted HCL string is '\b' in expr,
// a backspace, so the author's word boundary never matches. Tab, newline and
// carriage return are left alone: as literal characters they match what
// their regexp escapes match.
func regexEscapes(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, s := range conditionSites(rs) {
		node := s.cond.Node()
		if node == nil {
			continue
		}
		ast.Walk(&node, &regexVisitor{visit: func(lit *ast.StringNode) {
			r, ok := controlChar(lit.Value)
			if !ok {
				return
			}
			loc := lit.Location()
			diags = append(diags, rules.Warning(rules.CheckRegexEscape, s.cond.RangeOf(loc.From, loc.To),
				fmt.Sprintf("Regular expression holds %s", describe(r)), escapeAdvice(r)))
		}})
	}
	return diags
}

// regexVisitor calls visit on every string literal right of matches.
type regexVisitor struct{ visit func(*ast.StringNode) }

func (v *regexVisitor) Visit(node *ast.Node) {
	if b, ok := (*node).(*ast.BinaryNode); ok && b.Operator == "matches" {
		if lit, ok := b.Right.(*ast.StringNode); ok {
			v.visit(lit)
		}
	}
}

// controlChar returns the first control character of s that a regexp would
// not match the same way as its escape.
func controlChar(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return r, true
		}
	}
	return 0, false
}

// escapes names the expr escape that produces each control character.
var escapes = map[rune]string{'\a': `\a`, '\b': `\b`, '\f': `\f`, '\v': `\v`}

func describe(r rune) string {
	if r == '\b' {
		return "a backspace (U+0008)"
	}
	return fmt.Sprintf("the control character %U", r)
}

func escapeAdvice(r rune) string {
	esc, ok := escapes[r]
	if !ok {
		return fmt.Sprintf("The regexp would match the control character %U literally. If an escape meant for the regexp was decoded by HCL or expr, write its backslash four times in a quoted HCL string (twice in a heredoc).", r)
	}
	meaning := "not the regexp escape"
	if r == '\b' {
		meaning = "not a word boundary"
	}
	return fmt.Sprintf("expr decoded %s in the string literal before the regexp saw it, so it matches %s, %s. "+
		"Escape the backslash for expr: %s in expr, written %s in a quoted HCL string (%s in a heredoc).",
		esc, describe(r), meaning, `\`+esc, `\\\`+esc, `\`+esc)
}
