package youtrack

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

func TestNormaliseBaseURL(t *testing.T) {
	tests := []struct {
		in, api, web string
		wantErr      string
	}{
		{in: "https://acme.youtrack.cloud", api: "https://acme.youtrack.cloud/api", web: "https://acme.youtrack.cloud"},
		{in: "https://acme.youtrack.cloud/", api: "https://acme.youtrack.cloud/api", web: "https://acme.youtrack.cloud"},
		{in: "https://acme.youtrack.cloud/api", api: "https://acme.youtrack.cloud/api", web: "https://acme.youtrack.cloud"},
		{in: "https://acme.youtrack.cloud/api/", api: "https://acme.youtrack.cloud/api", web: "https://acme.youtrack.cloud"},
		{in: "https://host.corp/youtrack", api: "https://host.corp/youtrack/api", web: "https://host.corp/youtrack"},
		{in: "http://host.corp:8080/youtrack/api/", api: "http://host.corp:8080/youtrack/api", web: "http://host.corp:8080/youtrack"},
		{in: "  https://acme.youtrack.cloud  ", api: "https://acme.youtrack.cloud/api", web: "https://acme.youtrack.cloud"},
		{in: "acme.youtrack.cloud", wantErr: "want an http:// or https:// URL"},
		{in: "https://", wantErr: "missing host"},
		{in: "https://u:pw@acme.youtrack.cloud", wantErr: "must not carry credentials"},
		{in: "https://acme.youtrack.cloud/?q=1", wantErr: "query or fragment"},
		{in: "%zz", wantErr: "not a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			api, web, err := normaliseBaseURL(tt.in)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NotContains(t, err.Error(), "pw@")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.api, api.String())
			assert.Equal(t, tt.web, web.String())
		})
	}
}

func TestQueryString(t *testing.T) {
	jan1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	feb1 := time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want string
	}{
		{"nothing but the sort", sdk.FetchRequest{}, "sort by: created asc"},
		{"projects", sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC", "DEF"}}}, "project: ABC, DEF sort by: created asc"},
		{"project with spaces", sdk.FetchRequest{Filters: map[string][]string{"projects": {"Mobile App"}}}, "project: {Mobile App} sort by: created asc"},
		{"unresolved", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"open"}}}, "#Unresolved sort by: created asc"},
		{"resolved", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"closed", "done"}}}, "#Resolved sort by: created asc"},
		{"a state", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"In Progress"}}}, "State: {In Progress} sort by: created asc"},
		{"states and unresolved", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"unresolved", "Fixed", "In Progress"}}}, "(#Unresolved or State: Fixed, {In Progress}) sort by: created asc"},
		{"all statuses", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"open", "all"}}}, "sort by: created asc"},
		{"authors and labels", sdk.FetchRequest{Filters: map[string][]string{"authors": {"jane,li.wei"}, "labels": {"regression", "tech debt"}}}, "reporter: jane, li.wei tag: regression tag: {tech debt} sort by: created asc"},
		{"half-open month range", sdk.FetchRequest{Since: jan1, Until: feb1}, "updated: 2024-01-01 .. 2024-01-31 sort by: created asc"},
		{"created range by the hour", sdk.FetchRequest{Since: jan1.Add(9 * time.Hour), Until: jan1.Add(17 * time.Hour), Filters: map[string][]string{"date_field": {"created"}}}, "created: 2024-01-01T09:00:00 .. 2024-01-01T16:59:59 sort by: created asc"},
		{"open lower bound", sdk.FetchRequest{Until: feb1}, "updated: * .. 2024-01-31 sort by: created asc"},
		{"open upper bound", sdk.FetchRequest{Since: jan1}, "updated: 2024-01-01 .. * sort by: created asc"},
		{"verbatim query last", sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC"}, "query": {"Priority: Critical"}}}, "project: ABC Priority: Critical sort by: created asc"},
		{"braces in values are dropped", sdk.FetchRequest{Filters: map[string][]string{"authors": {"a}b {c"}}}, "reporter: {ab c} sort by: created asc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := parseRequest(tt.req, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, q.String())
		})
	}
}

func TestParseRequestErrors(t *testing.T) {
	jan1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, req := range map[string]sdk.FetchRequest{
		"kind":       {Kind: "commit"},
		"date_field": {Filters: map[string][]string{"date_field": {"resolved"}}},
		"range":      {Since: jan1, Until: jan1},
	} {
		_, err := parseRequest(req, nil)
		require.Error(t, err, name)
		assert.ErrorIs(t, err, sdk.ErrBadRequest, name)
		assert.Contains(t, err.Error(), "youtrack", name)
	}
}

func TestCustomFieldDecoding(t *testing.T) {
	tests := []struct {
		json         string
		want         any
		presentation string
		resolved     bool
	}{
		{`{"name":"State","$type":"StateIssueCustomField","value":{"name":"Fixed","isResolved":true,"$type":"StateBundleElement"}}`, "Fixed", "", true},
		{`{"name":"Stage","$type":"StateMachineIssueCustomField","value":{"name":"Review","$type":"StateBundleElement"}}`, "Review", "", false},
		{`{"name":"Priority","$type":"SingleEnumIssueCustomField","value":{"name":"Major","$type":"EnumBundleElement"}}`, "Major", "", false},
		{`{"name":"Subsystems","$type":"MultiEnumIssueCustomField","value":[{"name":"UI"},{"name":"Backend"}]}`, []string{"UI", "Backend"}, "", false},
		{`{"name":"Subsystems","$type":"MultiEnumIssueCustomField","value":[]}`, []string{}, "", false},
		{`{"name":"Assignee","$type":"SingleUserIssueCustomField","value":{"login":"jane","fullName":"Jane Doe","$type":"User"}}`, "jane", "", false},
		{`{"name":"Assignee","$type":"SingleUserIssueCustomField","value":null}`, nil, "", false},
		{`{"name":"Watchers","$type":"MultiUserIssueCustomField","value":[{"login":"jane"},{"login":"sam"}]}`, []string{"jane", "sam"}, "", false},
		{`{"name":"Estimation","$type":"PeriodIssueCustomField","value":{"minutes":150,"presentation":"2h 30m","$type":"PeriodValue"}}`, int64(150), "2h 30m", false},
		{`{"name":"Due Date","$type":"DateIssueCustomField","value":1717200000000}`, time.UnixMilli(1717200000000).UTC(), "", false},
		{`{"name":"Notes","$type":"TextIssueCustomField","value":{"text":"see #42","$type":"TextFieldValue"}}`, "see #42", "", false},
		{`{"name":"Points","$type":"SimpleIssueCustomField","value":5}`, int64(5), "", false},
		{`{"name":"Risk","$type":"SimpleIssueCustomField","value":0.75}`, 0.75, "", false},
		{`{"name":"Code","$type":"SimpleIssueCustomField","value":"X-1"}`, "X-1", "", false},
		{`{"name":"Fix versions","$type":"MultiVersionIssueCustomField","value":[{"name":"2024.1","$type":"VersionBundleElement"}]}`, []string{"2024.1"}, "", false},
		{`{"name":"Build","$type":"SingleBuildIssueCustomField","value":{"name":"117","$type":"BuildBundleElement"}}`, "117", "", false},
		{`{"name":"Team","$type":"SingleOwnedIssueCustomField","value":{"name":"Core","$type":"OwnedBundleElement"}}`, "Core", "", false},
		{`{"name":"Group","$type":"SingleGroupIssueCustomField","value":{"name":"devs","$type":"UserGroup"}}`, "devs", "", false},
		{`{"name":"Spent","$type":"SomeFutureIssueCustomField","value":{"minutes":60,"presentation":"1h"}}`, int64(60), "1h", false},
		{`{"name":"Odd date","$type":"DateIssueCustomField","value":"tomorrow"}`, "tomorrow", "", false},
		{`{"name":"Odd list","$type":"SimpleIssueCustomField","value":[1,2]}`, "[1,2]", "", false},
	}
	for _, tt := range tests {
		var f CustomField
		require.NoError(t, json.Unmarshal([]byte(tt.json), &f), tt.json)
		assert.Equal(t, tt.want, f.Value, tt.json)
		assert.Equal(t, tt.presentation, f.Presentation, tt.json)
		assert.Equal(t, tt.resolved, f.Resolved, tt.json)
	}
}

func TestEpochMillis(t *testing.T) {
	var is Issue
	require.NoError(t, json.Unmarshal([]byte(`{"created":1704067200000,"updated":null}`), &is))
	assert.Equal(t, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), is.Created.Time)
	assert.True(t, is.Updated.IsZero())
	assert.Error(t, json.Unmarshal([]byte(`{"created":"yesterday"}`), &is))
}

// FuzzCustomField feeds arbitrary custom-field JSON to the decoder: it may
// reject it, but it must never panic, and a decoded value is always one of
// the types a record can carry.
func FuzzCustomField(f *testing.F) {
	f.Add(`{"name":"State","$type":"StateIssueCustomField","value":{"name":"Open"}}`)
	f.Add(`{"name":"E","$type":"PeriodIssueCustomField","value":{"minutes":1e400}}`)
	f.Add(`{"name":"M","$type":"MultiUserIssueCustomField","value":[null,{"login":"x"}]}`)
	f.Add(`{"name":"S","$type":"SimpleIssueCustomField","value":[1,2]}`)
	f.Add(`{"name":"D","$type":"DateIssueCustomField","value":-1}`)
	f.Fuzz(func(t *testing.T, s string) {
		var cf CustomField
		if json.Unmarshal([]byte(s), &cf) != nil {
			return
		}
		switch cf.Value.(type) {
		case nil, string, []string, int64, float64, bool, time.Time:
		default:
			t.Fatalf("value of type %T from %s", cf.Value, s)
		}
	})
}
