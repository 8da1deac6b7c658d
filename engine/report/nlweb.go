package report

import (
	"bytes"
	"fmt"
	"net/url"

	"github.com/nous-dev/nous/engine/runner"
)

// Item is an NLWeb Item, exactly the fields the research-loop document's
// _format_result returns, in its order.
type Item struct {
	Type         string       `json:"@type"`
	URL          string       `json:"url"`
	Name         string       `json:"name"`
	Site         string       `json:"site"`
	SiteURL      string       `json:"siteUrl"`
	Score        int          `json:"score"`
	Description  string       `json:"description"`
	SchemaObject SchemaObject `json:"schema_object"`
}

// SchemaObject is an Item's metadata.
type SchemaObject struct {
	Type                 string   `json:"@type"`
	Mode                 string   `json:"mode"`
	Iterations           int      `json:"iterations"`
	SourcesUsed          []string `json:"sources_used"`
	Confidence           string   `json:"confidence"`
	TotalSourcesAnalyzed int      `json:"total_sources_analyzed"`
	Error                string   `json:"error,omitempty"`
	// Clarification is the question asked back (type ClarificationRequest).
	Clarification *Clarification `json:"clarification,omitempty"`
}

// Clarification is a question nous asks back instead of answering: what
// is ambiguous and the options the user can pick from.
type Clarification struct {
	Question      string   `json:"question"`
	Options       []string `json:"options"`
	AmbiguityType string   `json:"ambiguity_type"`
	Entity        string   `json:"entity,omitempty"`
	Candidates    []string `json:"candidates,omitempty"`
}

// The site every Item names, the research-loop document's.
const (
	ItemSite    = "Deep Research Module"
	ItemSiteURL = "https://deep-research.internal"
)

// The other constants of the document's _format_result.
const (
	itemName  = "深度研究報告："
	itemScore = 95
)

// Schema object types of the items.
const (
	typeReport = "ResearchReport"
	typeAnswer = "ResearchAnswer" // one intent's answer
	typeError  = "ResearchError"
	typeAsk    = "ClarificationRequest" // the question asked back
)

// Items formats res as NLWeb Items: the research report (or one error item
// when the run failed without a report), then one item per intent answer,
// in plan order, with the same fields.
func Items(res *runner.Result) []Item {
	items := []Item{reportItem(res)}
	for i, a := range res.Answers {
		items = append(items, answerItem(res, i, a))
	}
	return items
}

// reportURL is the document's f"{siteUrl}/{mode}/{query[:50]}",
// path-escaped: a raw question (spaces, "?", "#") is not a valid URL.
func reportURL(res *runner.Result) string {
	q := []rune(res.Query)
	return ItemSiteURL + "/" + url.PathEscape(res.Mode) + "/" + url.PathEscape(string(q[:min(len(q), 50)]))
}

func reportItem(res *runner.Result) Item {
	it := Item{
		Type:        "Item",
		URL:         reportURL(res),
		Name:        itemName + res.Query,
		Site:        ItemSite,
		SiteURL:     ItemSiteURL,
		Score:       itemScore,
		Description: res.Report,
		SchemaObject: SchemaObject{
			Type: typeReport, Mode: res.Mode, Iterations: passes(res), SourcesUsed: []string{},
			Confidence: "Medium", TotalSourcesAnalyzed: len(res.Records),
		},
	}
	if res.Answer != nil {
		if len(res.Answer.SourcesUsed) > 0 {
			it.SchemaObject.SourcesUsed = res.Answer.SourcesUsed
		}
		if res.Answer.ConfidenceLevel != "" {
			it.SchemaObject.Confidence = res.Answer.ConfidenceLevel
		}
	}
	if c := lowestConfidence(res.Answers); c != "" {
		// The report is as sure as its least sure answer.
		it.SchemaObject.Confidence = c
	}
	if res.Status == runner.ResultNeedsClarification && res.Clarification != nil && res.Ambiguity != nil {
		it.SchemaObject.Type, it.SchemaObject.Confidence = typeAsk, "Low"
		it.SchemaObject.Clarification = &Clarification{Question: res.Clarification.Question, Options: res.Clarification.Options,
			AmbiguityType: res.Ambiguity.Type, Entity: res.Ambiguity.Entity, Candidates: res.Ambiguity.Candidates}
	}
	if res.Status == runner.ResultFailed || res.Status == runner.ResultCancelled {
		it.Score = 0
		it.SchemaObject.Type = typeError
		it.SchemaObject.Error = res.Error
		if res.Error != "" {
			it.Description = res.Error
		}
	}
	return it
}

// answerItem is answer i as an Item: its line as the name, its section of
// the report as the description, its records counted.
func answerItem(res *runner.Result, i int, a runner.Answer) Item {
	it := Item{
		Type:        "Item",
		URL:         fmt.Sprintf("%s#answer-%d", reportURL(res), i+1),
		Name:        a.Line(),
		Site:        ItemSite,
		SiteURL:     ItemSiteURL,
		Score:       itemScore,
		Description: runner.Section(res, a),
		SchemaObject: SchemaObject{
			Type: typeAnswer, Mode: res.Mode, Iterations: passes(res), SourcesUsed: []string{},
			Confidence: a.Confidence, TotalSourcesAnalyzed: a.Count,
		},
	}
	if len(a.SourcesUsed) > 0 {
		it.SchemaObject.SourcesUsed = a.SourcesUsed
	}
	if it.SchemaObject.Confidence == "" {
		it.SchemaObject.Confidence = map[bool]string{true: "Medium", false: "Low"}[a.Status == runner.ResultSuccess]
	}
	if a.Status == runner.ResultFailed {
		it.Score = 0
		it.SchemaObject.Type, it.SchemaObject.Error = typeError, a.Result
	}
	return it
}

// confidenceRank orders the confidence levels, least sure first.
var confidenceRank = map[string]int{"Low": 1, "Medium": 2, "High": 3}

// lowestConfidence is the least sure of the answers' confidences, "" when
// none states one.
func lowestConfidence(answers []runner.Answer) string {
	low := ""
	for _, a := range answers {
		if r := confidenceRank[a.Confidence]; r > 0 && (low == "" || r < confidenceRank[low]) {
			low = a.Confidence
		}
	}
	return low
}

func renderNLWeb(b *bytes.Buffer, res *runner.Result) error {
	return encodeIndented(b, Items(res))
}
