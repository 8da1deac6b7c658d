package redact

import (
	"encoding/json"
	"html"
	"net/url"
	"strconv"
	"strings"
)

// spellings returns s as every encoder nous writes may spell it: raw; inside
// JSON with and without HTML escaping; inside Go's %q and %+q; as HTML and
// XML text (JUnit); URL-escaped; as DOT and Mermaid labels; as GitHub
// workflow-command data and properties; inside an HCL quoted string. They
// back up masking before encoding: text that was encoded before it reached
// a Redactor (an error that %q-quotes a value) is still caught.
func spellings(s string) []string {
	out := []string{s, inner(strconv.Quote(s)), inner(strconv.QuoteToASCII(s)), html.EscapeString(s),
		xmlAttr.Replace(s), xmlText.Replace(s), url.QueryEscape(s), url.PathEscape(s), dotLabel.Replace(s), mermaidLabel.Replace(s),
		githubData.Replace(s), githubProperty.Replace(s), hclString.Replace(s)}
	for _, escapeHTML := range []bool{true, false} {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(escapeHTML)
		if enc.Encode(s) == nil {
			out = append(out, inner(strings.TrimSuffix(b.String(), "\n")))
		}
	}
	return out
}

// inner strips the quotes of a quoted literal.
func inner(q string) string { return q[1 : len(q)-1] }

// The escapers of the formats that write labels and messages (engine/render,
// rules/report), repeated here so the Redactor knows their spellings.
var (
	dotLabel       = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	mermaidLabel   = strings.NewReplacer(`"`, "#quot;", "\n", " ", "<", "#lt;", ">", "#gt;")
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	hclString      = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "${", "$${", "%{", "%%{")
	// encoding/xml escapes newlines in attributes, not in character data.
	xmlAttr = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;", `'`, "&#39;", "\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")
	xmlText = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;", `'`, "&#39;", "\t", "&#x9;", "\r", "&#xD;")
)
