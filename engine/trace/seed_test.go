package trace

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSeedEntryFields: the reasoning trace document's ReasoningEntry
// (entry_id, interaction_id, timestamp, stage, thought, action, parameters,
// evidence, outcome, error, commitments, attachments, corrections), its
// stages and outcomes, keep their names in the JSON. nous adds fulfills.
func TestSeedEntryFields(t *testing.T) {
	tr := New(fixedClock, Interaction("i1"))
	id := tr.Add(Entry{Stage: Execution, Thought: "Searching for Tesla documents", Action: "search_documents",
		Parameters: Params{{"query", "Tesla"}}, Commitments: []string{"send_email"}})
	require.NoError(t, tr.Update(id, Update{Outcome: Failed, Error: "No documents found", Evidence: []string{"0 results"},
		Attachments: []map[string]any{{"type": "file"}}, Corrections: []string{"Retry with broader query"}}))
	b, err := json.Marshal(tr.Entries()[0])
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(b, &got))
	assert.Equal(t, []string{"action", "attachments", "commitments", "corrections", "entry_id", "error", "evidence",
		"interaction_id", "outcome", "parameters", "stage", "thought", "timestamp"}, slices.Sorted(maps.Keys(got)))
	assert.Equal(t, "i1", got["interaction_id"])

	assert.Equal(t, []Stage{"planning", "execution", "verification", "correction", "finalization"},
		[]Stage{Planning, Execution, Verification, Correction, Finalization})
	assert.Equal(t, []Outcome{"pending", "success", "partial", "failed", "skipped"}, []Outcome{Pending, Success, Partial, Failed, Skipped})
}
