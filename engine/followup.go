package engine

// FollowUp says what a question took from the earlier turn of its session
// (`nous ask --session`): the report's Understood block lists it, so
// nothing is carried over silently.
type FollowUp struct {
	Session string `json:"session"`
	Turn    int    `json:"turn"`  // the earlier turn's number in the session, from 1
	Query   string `json:"query"` // the earlier question
	// Carried are what the question took: intents (Key "intent"), entity
	// values, a period moved from the earlier one (Phrase says how, Reason
	// from what), or a move that had nothing to move (Value empty, Reason
	// why).
	Carried []Constraint `json:"carried,omitempty"`
}

// CarriedIntent is the Constraint key of an intent a follow-up took.
const CarriedIntent = "intent"
