package youtrack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// IssueFields is the `fields` parameter every issue request sends. Without
// it YouTrack returns only `id` and `$type`.
const IssueFields = "id,idReadable,summary,description,created,updated,resolved," +
	"reporter(login,fullName),project(shortName,name),tags(name)," +
	"customFields(name,$type,value(name,login,fullName,text,presentation,minutes,isResolved,$type))"

// Issue is a YouTrack issue as /api/issues returns it with IssueFields.
type Issue struct {
	ID           string        `json:"id"`
	IDReadable   string        `json:"idReadable"`
	Summary      string        `json:"summary"`
	Description  string        `json:"description"`
	Created      EpochMillis   `json:"created"`
	Updated      EpochMillis   `json:"updated"`
	Resolved     EpochMillis   `json:"resolved"`
	Reporter     *User         `json:"reporter"`
	Project      *Project      `json:"project"`
	Tags         []Named       `json:"tags"`
	CustomFields []CustomField `json:"customFields"`
	Type         string        `json:"$type"`
}

// User is a YouTrack user reference.
type User struct {
	Login    string `json:"login"`
	FullName string `json:"fullName"`
}

// Project is a YouTrack project reference.
type Project struct {
	ShortName string `json:"shortName"`
	Name      string `json:"name"`
}

// Named is any entity referenced by name (tags, bundle elements).
type Named struct {
	Name string `json:"name"`
}

// EpochMillis is a YouTrack timestamp: milliseconds since the Unix epoch,
// or null. The zero value means null.
type EpochMillis struct{ time.Time }

// UnmarshalJSON reads a number of milliseconds or null.
func (e *EpochMillis) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		e.Time = time.Time{}
		return nil
	}
	ms, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil {
		return fmt.Errorf("timestamp: want epoch milliseconds, got %s", b)
	}
	e.Time = time.UnixMilli(ms).UTC()
	return nil
}

// CustomField is one issue custom field with its value decoded by $type:
// string, []string, int64 (numbers, period minutes), float64, time.Time,
// bool, or nil when the field is empty.
type CustomField struct {
	Name string
	Type string
	// Value is the typed value; Presentation is YouTrack's own rendering
	// where it sends one (periods: "1w 2d 3h").
	Value        any
	Presentation string
	// Resolved is true for a state value YouTrack marks as resolved.
	Resolved bool
}

// fieldValue is every attribute IssueFields asks of a custom field value.
type fieldValue struct {
	Name         string   `json:"name"`
	Login        string   `json:"login"`
	FullName     string   `json:"fullName"`
	Text         *string  `json:"text"`
	Presentation string   `json:"presentation"`
	Minutes      *float64 `json:"minutes"`
	IsResolved   bool     `json:"isResolved"`
	Type         string   `json:"$type"`
}

// label is how a reference value reads in a record: a user's login, else
// the element's name, else its text or presentation.
func (v fieldValue) label() string {
	switch {
	case v.Login != "":
		return v.Login
	case v.Name != "":
		return v.Name
	case v.Text != nil:
		return *v.Text
	}
	return v.Presentation
}

// UnmarshalJSON decodes a custom field, its value shaped by its $type.
func (f *CustomField) UnmarshalJSON(b []byte) error {
	var raw struct {
		Name  string          `json:"name"`
		Type  string          `json:"$type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	f.Name, f.Type = raw.Name, raw.Type
	v := bytes.TrimSpace(raw.Value)
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		return nil
	}
	if err := f.decodeValue(v); err != nil {
		// An unexpected shape must not sink the whole page: keep it as a
		// scalar or, failing that, as its JSON text.
		f.Value, f.Presentation = simpleValue(v), ""
	}
	return nil
}

func (f *CustomField) decodeValue(v json.RawMessage) error {
	switch {
	case f.Type == "DateIssueCustomField":
		var ms EpochMillis
		if err := ms.UnmarshalJSON(v); err != nil {
			return err
		}
		f.Value = ms.Time
	case f.Type == "PeriodIssueCustomField":
		var p fieldValue
		if err := json.Unmarshal(v, &p); err != nil {
			return err
		}
		if p.Minutes != nil {
			f.Value = int64(*p.Minutes)
		}
		f.Presentation = p.Presentation
	case f.Type == "TextIssueCustomField":
		var t fieldValue
		if err := json.Unmarshal(v, &t); err != nil {
			return err
		}
		f.Value = t.label()
	case v[0] == '[': // Multi* fields and unknown list-valued ones
		var vs []fieldValue
		if err := json.Unmarshal(v, &vs); err != nil {
			return err
		}
		labels := make([]string, 0, len(vs))
		for _, e := range vs {
			labels = append(labels, e.label())
		}
		f.Value = labels
	case v[0] == '{': // State, single enum/user/version/build/owned/group
		var e fieldValue
		if err := json.Unmarshal(v, &e); err != nil {
			return err
		}
		f.Value, f.Resolved = e.label(), e.IsResolved
		if e.Minutes != nil { // a period value on a field of unknown $type
			f.Value, f.Presentation = int64(*e.Minutes), e.Presentation
		}
	default: // SimpleIssueCustomField: integer, float or string
		f.Value = simpleValue(v)
	}
	return nil
}

// simpleValue types a scalar: integral numbers become int64, other numbers
// float64, strings string, booleans bool; anything else keeps its JSON text.
func simpleValue(v json.RawMessage) any {
	text := string(bytes.TrimSpace(v))
	switch {
	case text == "true" || text == "false":
		return text == "true"
	case strings.HasPrefix(text, `"`):
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	default:
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(text, 64); err == nil && isJSONNumber(text) {
			return f
		}
	}
	return text
}

// isJSONNumber rejects what ParseFloat takes but JSON does not (Inf, NaN, hex).
func isJSONNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.eE+-") == ""
}

// isStateField reports whether a custom field carries the issue's state.
func (f CustomField) isStateField() bool {
	return f.Type == "StateIssueCustomField" || f.Type == "StateMachineIssueCustomField"
}
