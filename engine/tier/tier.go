// Package tier applies a mode's source-tier policy to records: each record
// gets its tier and type from the rules' tier table, the mode's keep
// condition decides what stays, its warn condition what is flagged with a
// "[Tier N | type]" prefix, and an empty result is an error where the mode
// says so.
package tier

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/sdk"
)

// Metadata field names added to the Fields of every record Filter keeps, in
// every mode: the flat form of the source documents' _reasoning_metadata
// {tier, type, original_source}. A flagged record says so by its body's prefix.
const (
	FieldTier           = "_reasoning_metadata.tier"
	FieldType           = "_reasoning_metadata.type"
	FieldOriginalSource = "_reasoning_metadata.original_source"
)

// UnknownType is the type of a record whose source is not in the tier table.
const UnknownType = "unknown"

// NoValidSourcesError is returned when a mode with on_empty = "error"
// keeps no record.
type NoValidSourcesError struct {
	Mode    string
	Dropped int // records the mode dropped
}

// Error says which mode kept nothing and how much it dropped.
func (e *NoValidSourcesError) Error() string {
	return fmt.Sprintf("no valid sources: mode %q kept none of %d record(s)", e.Mode, e.Dropped)
}

// Result is what a mode made of a list of records.
type Result struct {
	Kept    []sdk.Record
	Flagged int
	Dropped int
}

// Group is the records of one compared tier (monitor mode).
type Group struct {
	Tier    int      `json:"tier"`
	Records []string `json:"records"` // record IDs
}

// Filter applies the policy's mode to records: enrichment from its tier
// table, keep, warn. records is not modified. A nil mode keeps everything
// unflagged. Condition errors are returned with the record that caused
// them.
func Filter(p *engine.Policy, query string, records []sdk.Record) (Result, error) {
	res := Result{Kept: make([]sdk.Record, 0, len(records))}
	mode := p.Mode
	env := cond.ItemEnv{Query: query}
	if mode != nil {
		env.Mode = mode.Name
	}
	for _, rec := range records {
		rec, typ := Enrich(p.Tiers, rec)
		if mode != nil {
			env.Item = item(rec, typ)
			keep, err := mode.Keep.Eval(&env)
			if err != nil {
				return Result{}, fmt.Errorf("mode %q keep, record %s: %w", mode.Name, rec.ID, err)
			}
			if !keep {
				res.Dropped++
				continue
			}
			if mode.Warn != nil {
				warn, err := mode.Warn.Eval(&env)
				if err != nil {
					return Result{}, fmt.Errorf("mode %q warn, record %s: %w", mode.Name, rec.ID, err)
				}
				if warn {
					flag(&rec, typ)
					res.Flagged++
				}
			}
		}
		res.Kept = append(res.Kept, rec)
	}
	return res, nil
}

// CheckEmpty returns a *NoValidSourcesError when mode requires records and
// none were kept.
func CheckEmpty(mode *engine.Mode, kept, dropped int) error {
	if mode != nil && mode.Required && kept == 0 {
		return &NoValidSourcesError{Mode: mode.Name, Dropped: dropped}
	}
	return nil
}

// Enrich returns rec with its tier resolved from tiers (a tier set by the
// source is kept) and the metadata fields set, and the tier type.
func Enrich(tiers map[string]engine.Tier, rec sdk.Record) (sdk.Record, string) {
	typ := UnknownType
	if t, ok := tiers[rec.Source]; ok {
		if rec.Tier == 0 {
			rec.Tier = t.Tier
		}
		if t.Type != "" {
			typ = t.Type
		}
	}
	fields := make(map[string]any, len(rec.Fields)+3)
	maps.Copy(fields, rec.Fields)
	fields[FieldTier] = int64(rec.Tier)
	fields[FieldType] = typ
	fields[FieldOriginalSource] = rec.Source
	rec.Fields = fields
	return rec, typ
}

// Prefix is the flag put in front of a flagged record's body.
func Prefix(tier int, typ string) string {
	return "[Tier " + strconv.Itoa(tier) + " | " + typ + "]"
}

func flag(rec *sdk.Record, typ string) {
	p := Prefix(rec.Tier, typ)
	if rec.Body == "" {
		rec.Body = p
	} else {
		rec.Body = p + " " + rec.Body
	}
}

func item(rec sdk.Record, typ string) cond.Item {
	return cond.Item{
		ID: rec.ID, Source: rec.Source, Kind: rec.Kind, Title: rec.Title, Body: rec.Body,
		URL: rec.URL, Author: rec.Author, Time: rec.Time, Tier: rec.Tier, Type: typ,
	}
}

// Compare groups records by the mode's compared tiers, in the mode's order;
// records of other tiers are left out.
func Compare(mode *engine.Mode, records []sdk.Record) []Group {
	if mode == nil || len(mode.Compare) == 0 {
		return nil
	}
	groups := make([]Group, len(mode.Compare))
	for i, t := range mode.Compare {
		groups[i] = Group{Tier: t, Records: []string{}}
	}
	for _, r := range records {
		if i := slices.Index(mode.Compare, r.Tier); i >= 0 {
			groups[i].Records = append(groups[i].Records, r.ID)
		}
	}
	return groups
}
