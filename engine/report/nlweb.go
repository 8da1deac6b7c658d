package report

import (
	"bytes"
	"net/url"

	"github.com/nous-dev/nous/engine/exec"
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
}

// The constants of the document's _format_result.
const (
	itemSite    = "Deep Research Module"
	itemSiteURL = "https://deep-research.internal"
	itemName    = "深度研究報告："
	itemScore   = 95
)

// Items formats res as NLWeb Items: one research report, or one error item
// when the run failed without a report.
func Items(res *exec.Result) []Item {
	q := []rune(res.Query)
	it := Item{
		Type: "Item",
		// The document's f"{siteUrl}/{mode}/{query[:50]}", path-escaped: a raw
		// question (spaces, "?", "#") is not a valid URL.
		URL:         itemSiteURL + "/" + url.PathEscape(res.Mode) + "/" + url.PathEscape(string(q[:min(len(q), 50)])),
		Name:        itemName + res.Query,
		Site:        itemSite,
		SiteURL:     itemSiteURL,
		Score:       itemScore,
		Description: res.Report,
		SchemaObject: SchemaObject{
			Type: "ResearchReport", Mode: res.Mode, Iterations: passes(res), SourcesUsed: []string{},
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
	if res.Status == exec.ResultFailed || res.Status == exec.ResultCancelled {
		it.Score = 0
		it.SchemaObject.Type = "ResearchError"
		it.SchemaObject.Error = res.Error
		if res.Error != "" {
			it.Description = res.Error
		}
	}
	return []Item{it}
}

func renderNLWeb(b *bytes.Buffer, res *exec.Result) error {
	return encodeIndented(b, Items(res))
}
