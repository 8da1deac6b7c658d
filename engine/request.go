package engine

// Request is the input of Plan: a question, or explicit intents and entities.
// Its JSON form is the --input file of `nous plan`.
type Request struct {
	Query    string              `json:"query,omitempty"`
	Intents  []Intent            `json:"intents,omitempty"`  // when empty, detected from Query
	Entities map[string][]string `json:"entities,omitempty"` // when nil, extracted from Query
	Mode     string              `json:"mode,omitempty"`     // when empty, chosen by mode rules, else the default
}

// Intent is a detected or given intent.
type Intent struct {
	Type       string  `json:"type"`
	Confidence float64 `json:"confidence"`
}
