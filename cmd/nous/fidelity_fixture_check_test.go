package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFidelityFixture holds the fixture to what fidelity_fixture_test.go
// promises the questions: dates clear of every boundary they use, a quiet
// month, an empty last month before the clock, tags of both kinds, a merge,
// every author, a shallow clone.
func TestFidelityFixture(t *testing.T) {
	repo, shallow := buildFidelityFixture(t, t.TempDir())
	now, err := time.Parse(time.RFC3339, fidelityNow)
	require.NoError(t, err)

	dates := strings.Fields(fixtureGit(t, repo, nil, "log", "--format=%cI"))
	require.Greater(t, len(dates), 120, "about three years of weekly commits")
	for _, d := range dates {
		at, err := time.Parse(time.RFC3339, d)
		require.NoError(t, err)
		at = at.UTC()
		start := time.Date(at.Year(), at.Month(), 1, 0, 0, 0, 0, time.UTC)
		assert.GreaterOrEqual(t, at.Sub(start), 24*time.Hour, "%s is within a day of a month's start", d)
		assert.GreaterOrEqual(t, start.AddDate(0, 1, 0).Sub(at), 24*time.Hour, "%s is within a day of the next month's start", d)
		assert.False(t, at.Year() == 2025 && at.Month() == time.August, "%s: August 2025 is the quiet month", d)
		// "the past 30 days" starts on 2026-10-25 (or 10-24, 10-26 by other readings).
		assert.False(t, at.After(time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC)) && at.Before(time.Date(2026, 10, 27, 0, 0, 0, 0, time.UTC)), "%s is near the start of the past 30 days", d)
	}
	last, err := time.Parse(time.RFC3339, dates[0])
	require.NoError(t, err)
	assert.Greater(t, now.Sub(last), 21*24*time.Hour, "the last commit is weeks before the clock: last week and this month are empty")

	tags := fixtureGit(t, repo, nil, "for-each-ref", "--format=%(refname:short) %(objecttype)", "refs/tags")
	for _, want := range []string{"v1.0.0 tag", "v1.1.0 tag", "v1.9.0 tag", "v1.10.0 tag", "v1.16.0 tag", "v1.17.0 tag", "v1.18.1 commit"} {
		assert.Contains(t, tags, want+"\n", "annotated (tag) or lightweight (commit)")
	}
	merges := strings.Fields(fixtureGit(t, repo, nil, "log", "--merges", "--format=%H", "v1.9.0..v1.10.0"))
	assert.Len(t, merges, 1, "the pull request is merged between v1.9.0 and v1.10.0")

	authors := fixtureGit(t, repo, nil, "log", "--format=%an <%ae>")
	for _, a := range fixtureAuthors {
		assert.Contains(t, authors, a.name+" <"+a.email+">")
	}

	assert.Equal(t, "true", strings.TrimSpace(fixtureGit(t, shallow, nil, "rev-parse", "--is-shallow-repository")))
	assert.Len(t, strings.Fields(fixtureGit(t, shallow, nil, "log", "--format=%H")), fidelityShallowDepth)
}
