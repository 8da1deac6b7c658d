package redact

import (
	"encoding/json"
	"encoding/xml"
	"html"
	"strconv"
	"strings"
	"testing"
)

// FuzzValueThenEncode masks a document holding a random secret, encodes it
// as each format nous writes, decodes it back, and requires the secret gone.
func FuzzValueThenEncode(f *testing.F) {
	for _, s := range []string{`Sec"ret<Tok>&en9`, "line\nbreak-42", `back\slash'q`, "pct%0A%25x", "Ünï✓秘密<&>"} {
		f.Add(s, "prefix ", " suffix")
	}
	f.Fuzz(func(t *testing.T, secret, before, after string) {
		if len(secret) < minSecret || strings.Contains(before+after, secret) {
			return
		}
		type doc struct {
			Title string
			Tags  []string
			Meta  map[string]any
		}
		v := Value(New(secret), doc{Title: before + secret + after, Tags: []string{secret}, Meta: map[string]any{"k": secret}})
		decoded := map[string]string{}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back doc
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		decoded["json"] = back.Title + "\x00" + strings.Join(back.Tags, "\x00") + "\x00" + back.Meta["k"].(string)
		if u, err := strconv.Unquote(strconv.Quote(v.Title)); err == nil {
			decoded["%q"] = u
		}
		decoded["html"] = html.UnescapeString(html.EscapeString(v.Title))
		var x struct {
			A string `xml:"a,attr"`
			T string `xml:",chardata"`
		}
		if xb, err := xml.Marshal(struct {
			XMLName xml.Name `xml:"x"`
			A       string   `xml:"a,attr"`
			T       string   `xml:",chardata"`
		}{A: v.Title, T: v.Title}); err == nil && xml.Unmarshal(xb, &x) == nil {
			decoded["xml"] = x.A + "\x00" + x.T
		}
		for format, text := range decoded {
			if strings.Contains(text, secret) {
				t.Fatalf("%s: secret %q back after decoding: %q", format, secret, text)
			}
		}
	})
}
