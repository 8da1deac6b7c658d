package template

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// maxOptions caps the options a clarification offers.
const maxOptions = 6

// clarify offers options for an ambiguous question: the candidates the
// engine found (the people a name matched, the intents it reads as), else
// what the records hold (projects, authors, kinds, time span).
func clarify(_ Config, in sdk.ClarificationInput, records []sdk.Record) sdk.ClarificationOutput {
	switch in.AmbiguityType {
	case ambiguityMatches:
		return sdk.ClarificationOutput{Question: asked(in, "which do you mean?"), Options: candidateOptions(in.Candidates, nil)}
	case ambiguityIntent:
		return sdk.ClarificationOutput{Question: asked(in, "which answer do you want?"), Options: candidateOptions(in.Candidates, intentOption)}
	case ambiguityMissing:
		q := fmt.Sprintf("What should %q act on? It names no %s.", text.Clip(text.OneLine(in.Query), 100), in.Entity)
		return sdk.ClarificationOutput{Question: q, Options: candidateOptions(in.Candidates, nil)}
	}
	ev := gather(records)
	kind := strings.ToLower(in.AmbiguityType)
	switch {
	case strings.Contains(kind, "project"), strings.Contains(kind, "repo"):
		return sdk.ClarificationOutput{Question: "Which project do you mean?", Options: talliedOptions(ev.projects, "All projects")}
	case strings.Contains(kind, "time"), strings.Contains(kind, "date"), strings.Contains(kind, "period"), strings.Contains(kind, "range"):
		var opts []string
		if span := timeSpan(ev); span != "" {
			opts = append(opts, "The period of the records found: "+span)
		}
		opts = append(opts, "Last 7 days", "Last 30 days", "Last 90 days", "All time")
		return sdk.ClarificationOutput{Question: "Which time range do you mean?", Options: opts}
	case strings.Contains(kind, "author"), strings.Contains(kind, "person"), strings.Contains(kind, "user"):
		return sdk.ClarificationOutput{Question: "Whose work do you mean?", Options: talliedOptions(ev.authors, "Everyone")}
	}
	var opts []string
	for _, g := range ev.groups {
		if len(opts) == maxOptions-1 {
			break
		}
		opts = append(opts, fmt.Sprintf("%s (%d)", labelSets["en"].kindHeading(g.kind), len(g.records)))
	}
	if len(opts) == 0 {
		opts = []string{"Recent changes (commits and merge requests)", "Open issues", "Overall status"}
	}
	opts = append(opts, "Everything")
	q := "What should the answer focus on?"
	if query := text.OneLine(in.Query); query != "" {
		q = fmt.Sprintf("What should the answer to %q focus on?", text.Clip(query, 100))
	}
	return sdk.ClarificationOutput{Question: q, Options: opts}
}

// talliedOptions offers the most frequent names, then a catch-all.
func talliedOptions(ts []tally, all string) []string {
	opts := make([]string, 0, maxOptions)
	for _, t := range ts[:min(len(ts), maxOptions-1)] {
		opts = append(opts, text.OneLine(t.name))
	}
	return append(opts, all)
}

// The engine's ambiguity types (engine.Ambiguity*).
const (
	ambiguityIntent  = "intent"
	ambiguityMissing = "missing_entity"
	ambiguityMatches = "multiple_matches"
)

// asked is the engine's message made a question: `"Jeff" matches 3 people
// in git: which do you mean?`.
func asked(in sdk.ClarificationInput, ask string) string {
	msg := text.OneLine(in.Message)
	if msg == "" {
		return fmt.Sprintf("%q is ambiguous: %s", text.Clip(text.OneLine(in.Query), 100), ask)
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + ": " + ask
}

// candidateOptions offers the first candidates, worded by word when set,
// and says how many more there are.
func candidateOptions(candidates []string, word func(string) string) []string {
	opts := make([]string, 0, maxOptions)
	for _, c := range candidates[:min(len(candidates), maxOptions)] {
		c = text.OneLine(c)
		if word != nil {
			c = word(c)
		}
		opts = append(opts, c)
	}
	if n := len(candidates) - len(opts); n > 0 {
		opts = append(opts, fmt.Sprintf("Another (%d more match; name it in full)", n))
	}
	return opts
}

// intentOption words an intent type as an option: "command action".
func intentOption(intent string) string { return strings.ReplaceAll(intent, "_", " ") }
