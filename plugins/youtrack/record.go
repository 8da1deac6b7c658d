package youtrack

import (
	"time"

	"github.com/nous-dev/nous/sdk"
)

// issueRecord maps an issue to a record. Custom fields keep their YouTrack
// names (`Priority`, `Fix versions`); built-in attributes use lower-case
// keys that never collide with them (`project`, `created`, `state`).
// Periods add `<name>.presentation` beside their minutes.
func issueRecord(is Issue, url, dateField string) sdk.Record {
	fields := make(map[string]any, len(is.CustomFields)+8)
	for _, cf := range is.CustomFields {
		if cf.Name == "" || cf.Value == nil {
			continue
		}
		fields[cf.Name] = cf.Value
		if cf.Presentation != "" {
			fields[cf.Name+".presentation"] = cf.Presentation
		}
		if cf.isStateField() {
			if s, ok := cf.Value.(string); ok {
				fields["state"] = s
			}
		}
	}
	if is.Project != nil {
		fields["project"] = is.Project.ShortName
	}
	setTime(fields, "created", is.Created.Time)
	setTime(fields, "updated", is.Updated.Time)
	setTime(fields, "resolved", is.Resolved.Time)
	fields["is_resolved"] = !is.Resolved.IsZero()
	if len(is.Tags) > 0 {
		tags := make([]string, 0, len(is.Tags))
		for _, t := range is.Tags {
			tags = append(tags, t.Name)
		}
		fields["tags"] = tags
	}
	author := ""
	if is.Reporter != nil {
		author = is.Reporter.Login
		if is.Reporter.FullName != "" {
			fields["reporter_name"] = is.Reporter.FullName
		}
	}
	when := is.Updated.Time
	if dateField == "created" || when.IsZero() {
		when = is.Created.Time
	}
	id := is.IDReadable
	if id == "" {
		id = is.ID
	}
	return sdk.Record{
		ID:     id,
		Source: "youtrack",
		Kind:   sdk.KindIssue,
		Title:  is.Summary,
		Body:   is.Description,
		URL:    url,
		Author: author,
		Time:   when,
		Fields: fields,
	}
}

func setTime(fields map[string]any, key string, t time.Time) {
	if !t.IsZero() {
		fields[key] = t
	}
}
