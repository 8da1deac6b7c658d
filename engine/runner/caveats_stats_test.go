package runner

import (
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
)

// A source that cannot compute line statistics is said as what the answer
// lacks, not as a filter "true" that was not applied.
func TestConstraintTextWithStats(t *testing.T) {
	got := constraintText(engine.Constraint{Key: sdk.FilterWithStats, Value: "true", Source: "github"}, "", "no source of the plan applies it")
	assert.Equal(t, `No line statistics: source "github" does not compute them, so files, directories and lines changed are not counted; the answer lists commits only.`, got)
	got = constraintText(engine.Constraint{Key: "paths", Value: "2025"}, "", "no source knows it")
	assert.Equal(t, `The path filter "2025" could not be applied: no source knows it.`, got)
}
