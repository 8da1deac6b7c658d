package git

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// peopleRepo is a history with the identities that made one person look
// like several, or several like one: a list's DMARC rewrite, a shared
// first name across years, a surname containing a first name, names in
// other scripts.
//
//	2006  Martin Langhoff ×2, Martin Waitz
//	2019  Jeff King ×2, Jeff Hostetler, Harry Jeffery
//	2024  Martin Ågren ×2, Nicolas Morey-Chaisemartin, 'Patrick Steinhardt' via Git Security
//	2024  Patrick Steinhardt ×2, Johannes Schindelin via GitGitGadget, Someone Else via GitGitGadget
func peopleRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var s stream
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }
	prev := 0
	for i, c := range []struct {
		who  string
		when time.Time
	}{
		{"Martin Langhoff <martin@catalyst.net.nz>", at(2006, 3, 1)},
		{"Martin Langhoff <martin@catalyst.net.nz>", at(2006, 4, 1)},
		{"Martin Waitz <tali@admingilde.org>", at(2006, 5, 1)},
		{"Jeff King <peff@peff.net>", at(2019, 2, 1)},
		{"Jeff King <peff@peff.net>", at(2019, 3, 1)},
		{"Jeff Hostetler <jeffhost@microsoft.com>", at(2019, 4, 1)},
		{"Harry Jeffery <harry@exec64.co.uk>", at(2019, 5, 1)},
		{"Nicolas Morey-Chaisemartin <nmorey@suse.com>", at(2024, 1, 10)},
		{"Martin Ågren <martin.agren@gmail.com>", at(2024, 7, 17)},
		{"Martin Ågren <martin.agren@gmail.com>", at(2024, 12, 21)},
		{"Patrick Steinhardt <ps@pks.im>", at(2024, 8, 1)},
		{"Patrick Steinhardt <ps@pks.im>", at(2024, 8, 2)},
		{"'Patrick Steinhardt' via Git Security <git-security@googlegroups.com>", at(2024, 8, 3)},
		{"Johannes Schindelin via GitGitGadget <gitgitgadget@gmail.com>", at(2024, 9, 1)},
		{"Someone Else via GitGitGadget <gitgitgadget@gmail.com>", at(2024, 9, 2)},
	} {
		prev = s.commit("main", c.who, c.when, "change", prev, nil, file("f", string(rune('a'+i))))
	}
	importRepo(t, dir, &s)
	return dir
}

func TestGroundAuthorPeople(t *testing.T) {
	dir := peopleRepo(t)
	for _, engine := range statsEngines {
		t.Run(engine.name, func(t *testing.T) {
			s := configured(t, pathConfig(dir))
			engine.set(t, s)
			groundAuthorPeople(t, s)
		})
	}
}

// groundAuthorPeople checks peopleRepo's authors grounded by s.
func groundAuthorPeople(t *testing.T, s *Source) {
	year := func(y int) (time.Time, time.Time) {
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	for _, tt := range []struct {
		name, value string
		period      int // a year, 0 for none
		canonical   []string
		note        string
	}{
		{"a full name is that person, a list's rewrite included", "Patrick Steinhardt", 0, []string{"Patrick Steinhardt"}, "matches Patrick Steinhardt"},
		{"a full name in another case", "patrick steinhardt", 2024, []string{"patrick steinhardt"}, "matches Patrick Steinhardt"},
		// The address is one of the person's identities; the name is all of them, the list's rewrite too.
		{"an address", "ps@pks.im", 0, []string{"Patrick Steinhardt"}, `"ps@pks.im" read as Patrick Steinhardt`},
		{"a rewritten name is its plain name; the list's address joins nobody", "Johannes Schindelin", 0, []string{"Johannes Schindelin"}, ""},
		{"whole words before substrings", "Jeff", 0, []string{"Jeff King", "Jeff Hostetler"}, "by commits: Jeff King 2, Jeff Hostetler 1"},
		{"the period's people only, ranked by its commits", "Martin", 2006, []string{"Martin Langhoff", "Martin Waitz"}, "by commits in 2006: Martin Langhoff 2, Martin Waitz 1"},
		{"the only one with commits in the period is the answer", "Martin", 2024, []string{"Martin Ågren"}, `"Martin" read as Martin Ågren, the only Martin with commits in 2024 (2)`},
		{"nobody in the period: nothing to ask back, the value as asked", "Jeff", 2006, []string{"Jeff"}, `no one matching "Jeff" has commits in 2006 (overall: Jeff King 2, Jeff Hostetler 1)`},
		{"no whole word: any part", "Jeffe", 0, []string{"Jeffe"}, "matches Harry Jeffery"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: tt.value}}}
			if tt.period != 0 {
				req.Since, req.Until = year(tt.period)
			}
			resp, err := s.Ground(context.Background(), req)
			require.NoError(t, err)
			g := resp.Terms[0]
			assert.True(t, g.Known)
			assert.False(t, g.Partial, "the index is whole")
			assert.Equal(t, tt.canonical, g.Canonical)
			assert.Contains(t, g.Note, tt.note)
		})
	}
}

func TestPeriodText(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		since, until time.Time
		want         string
	}{
		{d(2024, 1, 1), d(2025, 1, 1), "2024"},
		{d(2026, 7, 1), d(2026, 8, 1), "July 2026"},
		{d(2024, 3, 4), d(2024, 3, 11), "2024-03-04 – 2024-03-10"},
		{d(2024, 3, 4), time.Time{}, "since 2024-03-04"},
		{time.Time{}, d(2024, 3, 4), "before 2024-03-04"},
	} {
		assert.Equal(t, tt.want, periodText(tt.since, tt.until))
	}
}

func BenchmarkGroundAuthor(b *testing.B) {
	dir := largeRepo(b, 2000, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	s := configured(b, pathConfig(dir))
	req := sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}, {Kind: sdk.TermAuthor, Value: "example"}},
		Since: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)}
	_, err := s.Ground(context.Background(), req) // the index, once
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Ground(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
