package engine_test

import (
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk/timerange"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEntityExtraction checks what the default entity rules extract from
// realistic questions, and that every date they extract is one sdk/timerange
// resolves. Path and project candidates overlap ("in payments"): planning
// keeps both, and grounding (Planner.Interpret) keeps what a source knows.
func TestEntityExtraction(t *testing.T) {
	p := defaultPlanner(t)
	type ents = map[string][]string
	tests := []struct {
		query string
		want  ents
	}{
		// The README's and the design's headline questions.
		{"what changed in this repository last week?", ents{"dates": {"last week"}}},
		{"what changed in payments last week?", ents{"projects": {"payments"}, "paths": {"payments"}, "dates": {"last week"}}},
		{"what commits were pushed to project payments last week?", ents{"projects": {"payments"}, "dates": {"last week"}}},
		{"how many open bugs does ABC have?", ents{"projects": {"ABC"}, "statuses": {"open"}}},
		{"is the release healthy?", ents{}},
		// Project forms.
		{"commits in project payments last week", ents{"projects": {"payments"}, "dates": {"last week"}}},
		{"commits in the last 14 days on repo: nous", ents{"projects": {"nous"}, "dates": {"in the last 14 days"}}},
		{"list closed tickets in the mobile project this month", ents{"projects": {"mobile"}, "paths": {"mobile"}, "statuses": {"closed"}, "dates": {"this month"}}},
		{"what was merged into payments-service yesterday?", ents{"projects": {"payments-service"}, "dates": {"yesterday"}, "statuses": {"merged"}}},
		{"commits to group/api between 2024-01-01..2024-01-31", ents{"projects": {"group/api"}, "paths": {"group/api"}, "dates": {"2024-01-01..2024-01-31"}}},
		{"what is the status of PAY-101?", ents{"projects": {"PAY"}, "paths": {"PAY-101"}}},
		{"show open and in-progress issues in PAY", ents{"projects": {"PAY"}, "paths": {"PAY"}, "statuses": {"open", "in-progress"}}},
		{"which project had the most commits this week?", ents{"dates": {"this week"}}},
		{"how is the nous repo going?", ents{"projects": {"nous"}}},
		{"any failures in CI last month?", ents{"dates": {"last month"}}},
		{"which issues are in progress this week?", ents{"dates": {"this week"}}},
		{"what changed in the repository since yesterday?", ents{"dates": {"since yesterday"}}},
		{"what changed in the backend since last week?", ents{"projects": {"backend"}, "paths": {"backend"}, "dates": {"since last week"}}},
		{"summarize the changes in the api repo this month", ents{"projects": {"api"}, "paths": {"api"}, "dates": {"this month"}}},
		{"what happened with PAY last week", ents{"projects": {"PAY"}, "dates": {"last week"}}},
		{"show me merge requests merged into main yesterday", ents{"dates": {"yesterday"}, "statuses": {"merged"}}},
		{"bugs in production today", ents{"dates": {"today"}}},
		// Hosted projects: pull requests, CI, releases.
		// ("octocat" and "v2.0" read as paths too: grounding drops what the tree has not.)
		{"open PRs assigned to octocat in milestone v1.1", ents{"statuses": {"open"}, "assignees": {"octocat"}, "milestones": {"v1.1"}, "paths": {"octocat"}}},
		{"which PRs labelled needs-review were merged last week?", ents{"labels": {"needs-review"}, "statuses": {"merged"}, "dates": {"last week"}}},
		{"issues in the v2.0 milestone with the bug label", ents{"milestones": {"v2.0"}, "labels": {"bug"}, "paths": {"v2.0"}}},
		{"is CI green on main?", ents{"revisions": {"main"}}},
		{"what changed in main.go on main?", ents{"paths": {"main.go"}, "revisions": {"main"}}},
		{"what changed since the last release?", ents{"revisions": {"last release.."}}},
		{"what changed since v1.2?", ents{"revisions": {"v1.2.."}}},
		{"what changed from v1.2.0 to v1.3.0?", ents{"paths": {"v1.3.0"}, "revisions": {"v1.2.0..v1.3.0"}}},
		{"what changed in the last release?", ents{"revisions": {"before last release..last release"}}},
		{"what's new in release 1.2?", ents{"revisions": {"before 1.2..1.2"}}},
		// "v1.3.0" reads as a path too: grounding keeps what a source knows.
		{"what went into v1.3.0?", ents{"revisions": {"before v1.3.0..v1.3.0"}}},
		{"what changed in v1.3.0?", ents{"paths": {"v1.3.0"}, "revisions": {"before v1.3.0..v1.3.0"}}},
		{"what went into v1.0?", ents{"revisions": {"before v1.0..v1.0"}}}, // two parts after a v
		{"what changed in 1.0?", ents{"paths": {"1.0"}}},                   // no v, no word: a number
		// Date forms: only those sdk/timerange accepts.
		{"open and in-progress issues from YouTrack today or yesterday", ents{
			"statuses": {"open", "in-progress"}, "providers": {"YouTrack"}, "dates": {"today", "yesterday"}}},
		{"commits this month, and this month again", ents{"dates": {"this month"}}},
		{"bugs fixed in the last 1 day", ents{"statuses": {"fixed"}, "dates": {"in the last 1 day"}}},
		{"issues resolved between 2024-03-01 and 2024-03-15", ents{"statuses": {"resolved"}, "dates": {"between 2024-03-01 and 2024-03-15"}}},
		{"what was deployed on 2024-02-29?", ents{"dates": {"on 2024-02-29"}}},
		{"what broke since 2024-01-01?", ents{"dates": {"since 2024-01-01"}}},
		{"tickets opened after 2024-05-01 in OPS", ents{"projects": {"OPS"}, "paths": {"OPS"}, "dates": {"after 2024-05-01"}}},
		{"commits over the last weekend", ents{}},
		{"releases in the last 0 days or on 2024-13-40", ents{"paths": {"2024-13-40"}}},
		// Statuses and providers.
		{"which blocked or reopened tickets are assigned to me?", ents{"statuses": {"blocked", "reopened"}}},
		{"compare GitLab and GitHub activity with Jira", ents{"providers": {"GitLab", "GitHub", "Jira"}}},
		{"are the unresolved bugs in SHOP getting fixed?", ents{"projects": {"SHOP"}, "paths": {"SHOP"}, "statuses": {"fixed"}}},
		{"hello there", ents{}},
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := plan(t, p, engine.Request{Query: tt.query}).Reasoning.Entities
			assert.Equal(t, tt.want, got)
			for _, d := range got["dates"] {
				_, err := timerange.Parse(d, now)
				assert.NoError(t, err, "extracted date %q", d)
			}
		})
	}
	require.GreaterOrEqual(t, len(tests), 20)
}

func TestPathCandidates(t *testing.T) {
	p := defaultPlanner(t)
	for q, want := range map[string][]string{
		"how many commits touched builtin/rebase.c in 2025?":      {"builtin/rebase.c"},
		"who changed README.md?":                                  {"README.md"},
		"which commits touched hclsyntax/?":                       {"hclsyntax/", "hclsyntax"}, // one after grounding
		"what changed in plumbing/format/packfile since v1.17.0?": {"plumbing/format/packfile"},
	} {
		assert.Equal(t, want, plan(t, p, engine.Request{Query: q}).Reasoning.Entities["paths"], q)
	}
}
