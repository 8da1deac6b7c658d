package youtrack

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

const testToken = "perm:cm9vdA==.TWFyaw==.s3cr3tT0kenValue"

type harness struct {
	fake   *fakes.YouTrack
	server *httptest.Server
	source *Source
	logs   *plugintest.Buffer
	waits  plugintest.Waits
}

// newHarness serves a fake YouTrack Server under /youtrack and configures
// the source with baseSuffix appended to the server URL.
func newHarness(t testing.TB, baseSuffix string) *harness {
	t.Helper()
	h := &harness{fake: fakes.NewYouTrack(testToken, "/youtrack"), logs: &plugintest.Buffer{}}
	h.server = httptest.NewServer(h.fake)
	t.Cleanup(h.server.Close)
	h.source = New(
		WithEnv(func(string) string { return "" }),
		WithRetry(h.waits.Policy()),
		WithLogger(slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	)
	raw, err := json.Marshal(map[string]any{"base_url": h.server.URL + baseSuffix, "token": testToken})
	require.NoError(t, err)
	diags, err := h.source.Configure(context.Background(), raw)
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "%v", diags)
	return h
}

func (h *harness) fetch(t testing.TB, req sdk.FetchRequest) ([]sdk.Record, error) {
	t.Helper()
	return sdktest.Collect(context.Background(), h.source, req)
}

func projectIssues(f *fakes.YouTrack, project string) []fakes.YouTrackIssue {
	var out []fakes.YouTrackIssue
	for _, is := range f.Issues {
		if is.Project == project {
			out = append(out, is)
		}
	}
	return out
}

func TestFetchPagesThroughAProject(t *testing.T) {
	for _, suffix := range []string{"/youtrack", "/youtrack/", "/youtrack/api", "/youtrack/api/"} {
		t.Run(suffix, func(t *testing.T) {
			h := newHarness(t, suffix)
			records, err := h.fetch(t, sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC"}}})
			require.NoError(t, err)
			want := projectIssues(h.fake, "ABC")
			require.Len(t, records, len(want))
			for i, r := range records {
				assert.Equal(t, want[i].ID, r.ID, "created asc order")
				assert.Equal(t, "youtrack", r.Source)
				assert.Equal(t, sdk.KindIssue, r.Kind)
				assert.Equal(t, want[i].Summary, r.Title)
				assert.Equal(t, want[i].Reporter, r.Author)
				assert.Equal(t, h.server.URL+"/youtrack/issue/"+want[i].ID, r.URL)
				assert.True(t, want[i].Updated.Equal(r.Time))
				assert.Equal(t, "ABC", r.Fields["project"])
				assert.Equal(t, want[i].State, r.Fields["state"])
				assert.Equal(t, want[i].Resolved, r.Fields["is_resolved"])
				assert.Equal(t, want[i].Estimated, r.Fields["Estimation"])
				assert.Equal(t, want[i].Tags, r.Fields["tags"])
			}

			reqs := h.fake.Requests()
			require.Len(t, reqs, 2, "130 issues: a full page of 100, then a short one")
			for i, uri := range reqs {
				u, err := url.Parse(uri)
				require.NoError(t, err)
				assert.Equal(t, "/youtrack/api/issues", u.Path)
				q := u.Query()
				assert.Equal(t, IssueFields, q.Get("fields"))
				assert.Equal(t, "100", q.Get("$top"))
				assert.Equal(t, []string{"0", "100"}[i], q.Get("$skip"))
				assert.Equal(t, "project: ABC sort by: created asc", q.Get("query"))
			}
		})
	}
}

func TestRecordFieldsAreTyped(t *testing.T) {
	h := newHarness(t, "/youtrack")
	records, err := h.fetch(t, sdk.FetchRequest{Filters: map[string][]string{"projects": {"DEF"}}, Limit: 12})
	require.NoError(t, err)
	require.Len(t, records, 12)
	sawDue, sawNoAssignee := false, false
	for _, r := range records {
		f := r.Fields
		assert.IsType(t, "", f["Priority"])
		assert.IsType(t, []string{}, f["Watchers"])
		assert.IsType(t, []string{}, f["Fix versions"])
		assert.IsType(t, int64(0), f["Estimation"])
		assert.IsType(t, "", f["Estimation.presentation"])
		assert.IsType(t, "", f["Notes"])
		assert.IsType(t, int64(0), f["Story points"])
		assert.IsType(t, time.Time{}, f["created"])
		assert.IsType(t, "", f["reporter_name"])
		if _, ok := f["Due Date"]; ok {
			assert.IsType(t, time.Time{}, f["Due Date"])
			sawDue = true
		}
		if _, ok := f["Assignee"]; !ok {
			sawNoAssignee = true
		}
		for k, v := range f {
			switch v.(type) {
			case string, int64, float64, bool, time.Time, []string:
			default:
				t.Errorf("field %q has wire-incompatible type %T", k, v)
			}
		}
	}
	assert.True(t, sawDue, "some issues have a due date")
	assert.True(t, sawNoAssignee, "empty fields are left out, not null")
}

func TestFetchFilters(t *testing.T) {
	f := fakes.GenerateYouTrackIssues(map[string]int{"ABC": 130, "DEF": 45})
	count := func(keep func(fakes.YouTrackIssue) bool) int {
		n := 0
		for _, is := range f {
			if keep(is) {
				n++
			}
		}
		return n
	}
	since := time.Date(2024, 1, 10, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 1, 20, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want int
	}{
		{"every project", sdk.FetchRequest{}, len(f)},
		{"two projects", sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC", "DEF"}}}, len(f)},
		{"unresolved", sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC"}, "statuses": {"open"}}},
			count(func(is fakes.YouTrackIssue) bool { return is.Project == "ABC" && !is.Resolved })},
		{"in progress or verified", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"In Progress", "Verified"}}},
			count(func(is fakes.YouTrackIssue) bool { return is.State == "In Progress" || is.State == "Verified" })},
		{"unresolved or fixed", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"unresolved", "Fixed"}}},
			count(func(is fakes.YouTrackIssue) bool { return !is.Resolved || is.State == "Fixed" })},
		{"reporter and tag", sdk.FetchRequest{Filters: map[string][]string{"authors": {"jane"}, "labels": {"tech debt"}}},
			count(func(is fakes.YouTrackIssue) bool { return is.Reporter == "jane" && is.Tags[0] == "tech debt" })},
		{"updated in range", sdk.FetchRequest{Since: since, Until: until},
			count(func(is fakes.YouTrackIssue) bool { return !is.Updated.Before(since) && is.Updated.Before(until) })},
		{"created in range", sdk.FetchRequest{Since: since, Until: until, Filters: map[string][]string{"date_field": {"created"}}},
			count(func(is fakes.YouTrackIssue) bool { return !is.Created.Before(since) && is.Created.Before(until) })},
		{"verbatim query", sdk.FetchRequest{Filters: map[string][]string{"query": {"export Safari"}}},
			count(func(is fakes.YouTrackIssue) bool {
				return strings.Contains(is.Text, "export") && strings.Contains(is.Text, "Safari")
			})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Positive(t, tt.want, "the fixture must have matching issues")
			h := newHarness(t, "/youtrack")
			records, err := h.fetch(t, tt.req)
			require.NoError(t, err)
			assert.Len(t, records, tt.want)
		})
	}
}

func TestFetchLimit(t *testing.T) {
	for _, limit := range []int{1, 7, 100, 101, 1000} {
		h := newHarness(t, "/youtrack")
		records, err := h.fetch(t, sdk.FetchRequest{Limit: limit})
		require.NoError(t, err)
		assert.Len(t, records, min(limit, len(h.fake.Issues)), "limit %d", limit)
		first, err := url.Parse(h.fake.Requests()[0])
		require.NoError(t, err)
		assert.Equal(t, min(limit, 100), atoi(t, first.Query().Get("$top")), "limit %d", limit)
	}
}

func atoi(t *testing.T, s string) int {
	var n int
	require.NoError(t, json.Unmarshal([]byte(s), &n))
	return n
}

// TestFakeWithoutFieldsAnswersBareIssues proves the fake behaves like
// YouTrack when `fields` is missing, so the client's fields matter.
func TestFakeWithoutFieldsAnswersBareIssues(t *testing.T) {
	h := newHarness(t, "/youtrack")
	req, err := http.NewRequest(http.MethodGet, h.server.URL+"/youtrack/api/issues?$top=3", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var bare []map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&bare))
	require.Len(t, bare, 3)
	for _, b := range bare {
		assert.Len(t, b, 2, "only id and $type: %v", b)
		assert.Equal(t, "Issue", b["$type"])
	}

	// The client always asks for fields, so its records are complete.
	records, err := h.fetch(t, sdk.FetchRequest{Limit: 3})
	require.NoError(t, err)
	for _, r := range records {
		assert.NotEmpty(t, r.Title)
		assert.NotEmpty(t, r.Fields["State"])
	}
	for _, uri := range h.fake.Requests()[1:] {
		assert.Contains(t, uri, "fields=")
	}
}

func TestFetchDedupesShiftedPages(t *testing.T) {
	h := newHarness(t, "/youtrack")
	abc := projectIssues(h.fake, "ABC")
	// An issue moved between requests: page 2 repeats the last of page 1.
	var page2 []json.RawMessage
	for _, is := range abc[99:] {
		page2 = append(page2, is.JSON)
	}
	body, err := json.Marshal(page2)
	require.NoError(t, err)
	h.fake.Fail(fakes.Fault{PathContains: "%24skip=100", Status: 200, Body: string(body)})

	records, err := h.fetch(t, sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC"}}})
	require.NoError(t, err)
	assert.Len(t, records, len(abc))
	ids := map[string]bool{}
	for _, r := range records {
		assert.False(t, ids[r.ID], "duplicate %s", r.ID)
		ids[r.ID] = true
	}
}

func TestDescribeAndUnconfigured(t *testing.T) {
	s := New(WithEnv(func(string) string { return "" }))
	info, err := s.Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "youtrack", info.Name)
	assert.Equal(t, []string{sdk.KindIssue}, info.Kinds)
	assert.Contains(t, info.Filters, "query")
	assert.True(t, json.Valid(info.ConfigSchema))

	err = s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
}

func TestConfigure(t *testing.T) {
	tests := []struct {
		name      string
		config    string
		env       map[string]string
		wantErrAt []string
		wantWarn  []string
	}{
		{name: "complete", config: `{"base_url":"https://acme.youtrack.cloud","token":"perm:x","projects":["ABC"]}`},
		{name: "from the environment", config: `{}`, env: map[string]string{"YOUTRACK_URL": "https://host/youtrack", "YOUTRACK_TOKEN": "perm:y"}},
		{name: "nothing", config: `null`, wantErrAt: []string{"base_url", "token"}},
		{name: "bad url", config: `{"base_url":"youtrack.example.com","token":"t"}`, wantErrAt: []string{"base_url"}},
		{name: "projects not a list", config: `{"base_url":"https://a.youtrack.cloud","token":"t","projects":"ABC"}`, wantErrAt: []string{"projects"}},
		{name: "token not a string", config: `{"base_url":"https://a.youtrack.cloud","token":123456}`, wantErrAt: []string{"token", "token"}},
		{name: "unknown key", config: `{"base_url":"https://a.youtrack.cloud","token":"t","project":["ABC"]}`, wantWarn: []string{"project"}},
		{name: "not an object", config: `"x"`, wantErrAt: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(WithEnv(func(k string) string { return tt.env[k] }))
			diags, err := s.Configure(context.Background(), json.RawMessage(tt.config))
			require.NoError(t, err)
			var errs, warns []string
			for _, d := range diags {
				assert.NotContains(t, d.Summary+d.Detail, "123456")
				if d.Severity == sdk.SeverityError {
					errs = append(errs, d.Path)
				} else {
					warns = append(warns, d.Path)
				}
			}
			assert.Equal(t, tt.wantErrAt, errs)
			assert.Equal(t, tt.wantWarn, warns)
		})
	}
}

func TestFetchStopsWhenTheServerIgnoresSkip(t *testing.T) {
	h := newHarness(t, "/youtrack")
	var page1 []json.RawMessage
	for _, is := range projectIssues(h.fake, "ABC")[:100] {
		page1 = append(page1, is.JSON)
	}
	body, err := json.Marshal(page1)
	require.NoError(t, err)
	h.fake.Fail(fakes.Fault{PathContains: "/api/issues", Times: 50, Status: 200, Body: string(body)})

	records, err := h.fetch(t, sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC"}}})
	require.NoError(t, err)
	assert.Len(t, records, 100)
	assert.Len(t, h.fake.Requests(), 2, "the repeated page ends the walk")
	assert.Contains(t, h.logs.String(), "already seen")
}
