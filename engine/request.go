package engine

// Request is the input of Plan: a question, or explicit intents and entities.
// Its JSON form is the --input file of `nous plan`.
type Request struct {
	Query   string   `json:"query,omitempty"`
	Intents []Intent `json:"intents,omitempty"` // when empty, detected from Query
	// Entities, when nil, are extracted from Query; an empty map means none
	// (omitzero keeps an empty map in JSON; omitempty dropped it).
	Entities map[string][]string `json:"entities,omitzero"`
	Mode     string              `json:"mode,omitempty"` // when empty, chosen by mode rules, else the default
	// FollowUp, when set, says what Intents and Entities took from an
	// earlier question; Interpret puts it in the interpretation.
	FollowUp *FollowUp `json:"follow_up,omitempty"`
}

// Intent is a detected or given intent.
type Intent struct {
	Type       string  `json:"type"`
	Confidence float64 `json:"confidence"`
}
