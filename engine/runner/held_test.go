package runner

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHeldKeepsTheNewestAndCountsTheRest(t *testing.T) {
	rec := func(id string, minutes int, author string) sdk.Record {
		return sdk.Record{ID: id, Source: "git", Kind: sdk.KindCommit, Author: author, Time: fixedNow.Add(time.Duration(minutes) * time.Minute),
			Fields: map[string]any{"status": "open"}}
	}
	tests := []struct {
		name    string
		max     int
		in      []sdk.Record
		held    []string
		omitted int
	}{
		{"under the cap: all, in arrival order", 3, []sdk.Record{rec("b", 1, "x"), rec("a", 2, "y")}, []string{"b", "a"}, 0},
		{"duplicates held once", 3, []sdk.Record{rec("a", 1, "x"), rec("a", 1, "x"), rec("b", 2, "x")}, []string{"a", "b"}, 0},
		{"over the cap: the newest, arrival order kept", 2, []sdk.Record{rec("a", 1, "x"), rec("b", 3, "y"), rec("c", 2, "z"), rec("d", 0, "x")},
			[]string{"b", "c"}, 2},
		{"ties by ID", 2, []sdk.Record{rec("c", 1, "x"), rec("b", 1, "x"), rec("a", 1, "x")}, []string{"b", "a"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHeld(tt.max)
			for _, r := range tt.in {
				h.add(r)
			}
			recs, omitted := h.done()
			var ids []string
			for _, r := range recs {
				ids = append(ids, r.ID)
			}
			assert.Equal(t, tt.held, ids)
			assert.Equal(t, tt.omitted, omitted.count())
		})
	}
}

func TestTallyBoundsDistinctNames(t *testing.T) {
	var tl tally
	for i := range maxDistinct + 5 {
		tl.add(sdk.Record{ID: fmt.Sprint(i), Kind: sdk.KindIssue, Author: fmt.Sprintf("a%d", i), Time: fixedNow.Add(time.Duration(i) * time.Hour)})
	}
	k := tl[sdk.KindIssue]
	require.NotNil(t, k)
	assert.Equal(t, maxDistinct+5, k.Count, "every record counted")
	assert.Len(t, k.Authors, maxDistinct, "names bounded")
	assert.Equal(t, 5, k.OtherAuthors)
	assert.Equal(t, fixedNow, k.Earliest)
	assert.Equal(t, fixedNow.Add(time.Duration(maxDistinct+4)*time.Hour), k.Latest)

	var merged tally
	merged.merge(tl)
	merged.merge(tl)
	assert.Equal(t, 2*(maxDistinct+5), merged.count())
	assert.Equal(t, 10, merged[sdk.KindIssue].OtherAuthors)
}

// loop.max_records sets the cap: the retrieval holds that many, the step
// and the answer count every record.
func TestMaxRecordsFromTheRules(t *testing.T) {
	plan := buildPlan(loadRules(t, "loop {\n  max_records = 10\n}\n"), "how many commits?", "discovery", nil,
		stepSpec{id: "h0", desc: "commits", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h1", desc: "count", action: "stats", deps: []string{"h0"}},
	)
	res, err := New(manySource{n: 25}, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Len(t, res.Records, 10)
	assert.Equal(t, 15, res.Omitted)
	assert.Equal(t, 10, res.History.Configuration.MaxRecords)
	assert.Contains(t, res.Steps[0].Output, "holding the newest 10 (loop.max_records) and counting 15 more")
	assert.Contains(t, res.Steps[1].Output, "15 more beyond loop.max_records")
}

func TestFitContextBoundsRequestBytes(t *testing.T) {
	big := sdk.Record{ID: "x", Body: string(make([]byte, 1<<20))}
	recs := make([]sdk.Record, 40)
	for i := range recs {
		recs[i] = big
	}
	got := fitContext(recs)
	assert.Len(t, got, 15, "16 MiB of 1 MiB bodies")
	small := []sdk.Record{{ID: "a"}, {ID: "b"}}
	assert.Equal(t, small, fitContext(small))
}
