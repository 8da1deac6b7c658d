package github

import (
	"context"
	"regexp"
	"slices"
	"strings"

	gh "github.com/google/go-github/v75/github"
)

// The search API's documented limits. GitHub counts q's length without
// qualifiers and operators; nous counts all of it, to stay clear of it.
const (
	maxSearchQuery     = 256  // characters of q
	maxSearchOperators = 5    // AND, OR and NOT in q
	maxSearchResults   = 1000 // items a search returns, whatever total_count says
	// maxSearches bounds the searches one scope expands into (one per
	// author, assignee and milestone): a third of the 30 a minute allowed
	// with a token.
	maxSearches = 10
)

// searchLogin is what an author: or assignee: qualifier takes unquoted: a
// GitHub login, a bot's "name[bot]" or an app's "app/name".
var searchLogin = regexp.MustCompile(`^(app/)?[A-Za-z0-9][A-Za-z0-9-]*(\[bot\])?$`)

// searches are the /search/issues queries answering one pull request scope,
// one per author, assignee and milestone asked for; ok is false when a
// value cannot be said in the search syntax or a query passes its limits.
// Milestones are titles here.
func (q query) searches(sc scope) (out []string, ok bool) {
	base := []string{"repo:" + sc.repo, "is:pr"}
	switch sc.state {
	case "open":
		base = append(base, "is:open")
	case "closed": // what "closed" and "merged" share
		merged, closed := slices.Contains(q.states, "merged"), slices.Contains(q.states, "closed")
		switch {
		case merged && !closed:
			base = append(base, "is:merged")
		case closed && !merged:
			base = append(base, "is:closed", "is:unmerged")
		default:
			base = append(base, "is:closed")
		}
	}
	if q.ref != "" {
		base = append(base, quoted("base", q.ref))
	}
	for _, l := range q.labels {
		base = append(base, quoted("label", l))
	}
	if r := q.searchRange(); r != "" {
		base = append(base, r)
	}
	authors := qualifiers(q.authors, func(a string) string { return login("author", a) })
	assignees := qualifiers(q.assignees, func(a string) string {
		if a == "none" {
			return "no:assignee"
		}
		return login("assignee", a)
	})
	milestones := qualifiers(q.milestones, func(m string) string {
		if m == "none" {
			return "no:milestone"
		}
		return quoted("milestone", m)
	})
	if len(authors)*len(assignees)*len(milestones) > maxSearches {
		return nil, false
	}
	for _, a := range authors {
		for _, as := range assignees {
			for _, m := range milestones {
				parts := append(append([]string(nil), base...), a, as, m)
				s := strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " ")
				if strings.Contains(s, unsayable) || !searchFits(s) {
					return nil, false
				}
				out = append(out, s)
			}
		}
	}
	return out, true
}

// searchRange is the date field's range qualifier, e.g.
// merged:2024-03-20T00:00:00Z..2024-03-27T00:00:00Z.
func (q query) searchRange() string {
	const layout = "2006-01-02T15:04:05Z"
	switch since, until := q.since.UTC().Format(layout), q.until.UTC().Format(layout); {
	case !q.since.IsZero() && !q.until.IsZero():
		return q.dateField + ":" + since + ".." + until
	case !q.since.IsZero():
		return q.dateField + ":>=" + since
	case !q.until.IsZero():
		return q.dateField + ":<=" + until
	}
	return ""
}

// qualifiers maps the values asked for, or one blank (no filter) for none.
func qualifiers(values []string, qualifier func(string) string) []string {
	if len(values) == 0 {
		return []string{""}
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = qualifier(v)
	}
	return out
}

// unsayable marks a value the search syntax cannot carry; the query then
// does not fit.
const unsayable = "\x00"

// login is key:login, or unsayable for "*" and anything not a login
// (which could smuggle in other qualifiers).
func login(key, value string) string {
	if !searchLogin.MatchString(value) {
		return unsayable
	}
	return key + ":" + value
}

// quoted is key:"value", or unsayable for "*" and values holding a quote.
func quoted(key, value string) string {
	if value == "*" || strings.ContainsAny(value, "\"\\\x00") {
		return unsayable
	}
	return key + `:"` + value + `"`
}

// searchFits reports whether q keeps within the search API's limits.
func searchFits(q string) bool {
	return len(q) <= maxSearchQuery && searchOperators(q) <= maxSearchOperators
}

// searchOperators counts the AND, OR and NOT operators outside quotes.
func searchOperators(q string) int {
	n, inQuote, start := 0, false, 0
	word := func(end int) {
		switch q[start:end] {
		case "AND", "OR", "NOT":
			n++
		}
	}
	for i := 0; i < len(q); i++ {
		switch {
		case q[i] == '"':
			inQuote = !inQuote
		case q[i] == ' ' && !inQuote:
			word(i)
			start = i + 1
		}
	}
	word(len(q))
	return n
}

// searchPullRequests runs the searches of one scope, following Link pages
// up to the 1,000 results a search returns, and says in the log when a
// search found more than that or GitHub timed out before finding all.
func (r *fetchRun) searchPullRequests(ctx context.Context, sc scope, q query, searches []string) error {
	r.searching = true
	defer func() { r.searching = false }()
	for _, s := range searches {
		warned := false
		list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.Issue, *gh.Response, error) {
			res, resp, err := r.client.Search.Issues(ctx, s, &gh.SearchOptions{Sort: q.listSort(), Order: "desc", ListOptions: lo})
			if err != nil || res == nil {
				return nil, resp, err
			}
			if !warned && (res.GetTotal() > maxSearchResults || res.GetIncompleteResults()) {
				warned = true
				r.logger.Warn("github: search results are incomplete: the search API returns at most 1,000 results and says when it timed out; narrow the dates or filters",
					"query", s, "total_count", res.GetTotal(), "incomplete_results", res.GetIncompleteResults())
			}
			return res.Issues, resp, nil
		}
		err := paginate(ctx, r, sc.repo, list, func(i *gh.Issue) error {
			if i == nil || i.PullRequestLinks == nil {
				return nil
			}
			rec := pullRequestRecord(pullFromIssue(i, q.ref), sc.repo, q.dateField)
			if !q.keepPull(rec) || !q.inWindow(rec) {
				return nil
			}
			return r.out(rec)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// pullFromIssue is the pull request a search item describes: the search
// API returns issue objects, without head, base or merge commit; the base
// is known when the search asked for one.
func pullFromIssue(i *gh.Issue, base string) *gh.PullRequest {
	pr := &gh.PullRequest{
		Number: i.Number, Title: i.Title, Body: i.Body, State: i.State, Draft: i.Draft, User: i.User,
		Labels: i.Labels, Assignees: i.Assignees, Milestone: i.Milestone, HTMLURL: i.HTMLURL,
		CreatedAt: i.CreatedAt, UpdatedAt: i.UpdatedAt, ClosedAt: i.ClosedAt, MergedAt: i.PullRequestLinks.MergedAt,
	}
	if base != "" {
		pr.Base = &gh.PullRequestBranch{Ref: &base}
	}
	return pr
}
