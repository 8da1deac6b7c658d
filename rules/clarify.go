package rules

// AsksBack reports whether the rules can ask a question back before it
// runs: an intent requires entities or conflicts with another, or an
// entity means one thing when it matches several. The agent named
// "clarification" then words the question.
func (r *Ruleset) AsksBack() bool {
	for _, in := range r.Intents {
		if len(in.Requires) > 0 || len(in.Conflicts) > 0 {
			return true
		}
	}
	for _, e := range r.Entities {
		if e.Matches == MatchesOne && e.Ground != "" {
			return true
		}
	}
	return false
}
