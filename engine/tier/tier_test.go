package tier

import (
	"errors"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const modesHCL = `
nous { version = 1 }
tier "中央社" {
  tier = 1
  type = "official"
}
tier "聯合報" {
  tier = 2
  type = "news"
}
tier "報導者" {
  tier = 3
  type = "digital"
}
tier "PTT" {
  tier = 5
  type = "social"
}
mode "strict" {
  keep     = "item.tier >= 1 && item.tier <= 2"
  on_empty = "error"
}
mode "discovery" {
  warn = "item.tier == 0 || item.tier >= 3"
}
mode "monitor" {
  compare = [1, 5]
}
`

// policy is the run policy of modesHCL in mode.
func policy(t testing.TB, mode string) *engine.Policy {
	t.Helper()
	rs, diags := rules.Parse("modes.hcl", []byte(modesHCL))
	require.False(t, diags.HasErrors(), diags.Error())
	return engine.NewPlanner(rs).Policy(mode)
}

func records() []sdk.Record {
	return []sdk.Record{
		{ID: "a", Source: "中央社", Body: "official news"},
		{ID: "b", Source: "聯合報", Body: "paper"},
		{ID: "c", Source: "報導者", Body: "digital"},
		{ID: "d", Source: "PTT", Body: "forum"},
		{ID: "e", Source: "unknown-blog", Body: "blog"},
		{ID: "f", Source: "PTT", Tier: 2, Body: "tier set by the source"},
	}
}

func ids(recs []sdk.Record) []string {
	out := []string{}
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func TestFilterModes(t *testing.T) {
	tests := []struct {
		mode          string
		kept          []string
		flagged       int
		dropped       int
		flaggedBodies map[string]string
	}{
		{mode: "strict", kept: []string{"a", "b", "f"}, dropped: 3},
		{mode: "discovery", kept: []string{"a", "b", "c", "d", "e", "f"}, flagged: 3, flaggedBodies: map[string]string{
			"c": "[Tier 3 | digital] digital", "d": "[Tier 5 | social] forum", "e": "[Tier 0 | unknown] blog",
		}},
		{mode: "monitor", kept: []string{"a", "b", "c", "d", "e", "f"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			in := records()
			res, err := Filter(policy(t, tt.mode), "q", in)
			require.NoError(t, err)
			assert.Equal(t, tt.kept, ids(res.Kept))
			assert.Equal(t, tt.flagged, res.Flagged)
			assert.Equal(t, tt.dropped, res.Dropped)
			for _, r := range res.Kept {
				if want, ok := tt.flaggedBodies[r.ID]; ok {
					assert.Equal(t, want, r.Body)
				} else {
					assert.NotContains(t, r.Body, "[Tier")
				}
				assert.Equal(t, map[string]any{FieldTier: int64(r.Tier), FieldType: r.Fields[FieldType], FieldOriginalSource: r.Source}, r.Fields,
					"the source documents' metadata fields, and only those")
			}
			assert.Equal(t, records(), in, "input records are not modified")
		})
	}
}

func TestEnrichKeepsSourceTier(t *testing.T) {
	rec, typ := Enrich(policy(t, "").Tiers, sdk.Record{ID: "f", Source: "PTT", Tier: 2})
	assert.Equal(t, 2, rec.Tier)
	assert.Equal(t, "social", typ)
	rec, typ = Enrich(policy(t, "").Tiers, sdk.Record{ID: "x", Source: "nowhere"})
	assert.Equal(t, 0, rec.Tier)
	assert.Equal(t, UnknownType, typ)
	assert.Equal(t, UnknownType, rec.Fields[FieldType])
}

func TestStrictNoValidSources(t *testing.T) {
	res, err := Filter(policy(t, "strict"), "q", []sdk.Record{{ID: "d", Source: "PTT"}, {ID: "e", Source: "x"}})
	require.NoError(t, err)
	err = CheckEmpty(policy(t, "strict").Mode, len(res.Kept), res.Dropped)
	var nv *NoValidSourcesError
	require.True(t, errors.As(err, &nv))
	assert.Equal(t, "strict", nv.Mode)
	assert.Equal(t, 2, nv.Dropped)
	assert.Contains(t, err.Error(), "no valid sources")
	assert.NoError(t, CheckEmpty(policy(t, "discovery").Mode, 0, 0), "discovery never errors on empty")
}

func TestCompare(t *testing.T) {
	res, err := Filter(policy(t, "monitor"), "q", records())
	require.NoError(t, err)
	assert.Equal(t, []Group{{Tier: 1, Records: []string{"a"}}, {Tier: 5, Records: []string{"d"}}}, Compare(policy(t, "monitor").Mode, res.Kept))
	assert.Nil(t, Compare(policy(t, "strict").Mode, res.Kept))
}

func BenchmarkFilterDiscovery(b *testing.B) {
	p := policy(b, "discovery")
	recs := records()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Filter(p, "q", recs); err != nil {
			b.Fatal(err)
		}
	}
}
