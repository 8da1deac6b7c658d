package main

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

func TestGround(t *testing.T) {
	src := configured(t, "testdata/issues.jsonl")
	tests := []struct {
		term sdk.Term
		want sdk.GroundedTerm
	}{
		{sdk.Term{Kind: sdk.TermProject, Value: "pay"}, sdk.GroundedTerm{Known: true, Canonical: []string{"PAY"}}},
		{sdk.Term{Kind: sdk.TermProject, Value: "OPS"}, sdk.GroundedTerm{Known: true, Canonical: []string{"OPS", "ops"}}},
		{sdk.Term{Kind: sdk.TermProject, Value: "SHOP"}, sdk.GroundedTerm{Note: "no record in the file has this project"}},
		{sdk.Term{Kind: sdk.TermState, Value: "in progress"}, sdk.GroundedTerm{Known: true, Canonical: []string{"In Progress"}}},
		{sdk.Term{Kind: sdk.TermState, Value: "Fixed"}, sdk.GroundedTerm{Known: true, Canonical: []string{"fixed"}}}, // from "status"
		{sdk.Term{Kind: sdk.TermLabel, Value: "payments"}, sdk.GroundedTerm{Known: true, Canonical: []string{"Payments", "payments"}}},
		{sdk.Term{Kind: sdk.TermLabel, Value: "security"}, sdk.GroundedTerm{Known: true, Canonical: []string{"security"}}}, // from "tags"
		{sdk.Term{Kind: sdk.TermAuthor, Value: "ana lima"}, sdk.GroundedTerm{Known: true, Canonical: []string{"Ana Lima"}}},
		{sdk.Term{Kind: sdk.TermAuthor, Value: "ana"}, sdk.GroundedTerm{Note: "no record in the file has this author"}}, // whole names, as the author filter
		{sdk.Term{Kind: sdk.TermPath, Value: "docs/"}, sdk.GroundedTerm{Note: "jsonl grounds project, state, label and author terms only"}},
	}
	req := sdk.GroundRequest{}
	for _, tt := range tests {
		req.Terms = append(req.Terms, tt.term)
	}
	resp, err := sdktest.Ground(context.Background(), src, req)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		tt.want.Kind, tt.want.Value = tt.term.Kind, tt.term.Value
		if !reflect.DeepEqual(resp.Terms[i], tt.want) {
			t.Errorf("%s %q:\n got %+v\nwant %+v", tt.term.Kind, tt.term.Value, resp.Terms[i], tt.want)
		}
	}
	wantCov := sdk.Coverage{
		Earliest: time.Date(2026, 2, 14, 0, 0, 0, 0, time.UTC),
		Latest:   time.Date(2026, 3, 9, 8, 30, 0, 0, time.UTC),
		Name:     "issues.jsonl",
	}
	if resp.Coverage != wantCov {
		t.Errorf("coverage = %+v, want %+v", resp.Coverage, wantCov)
	}
	if want := []string{filterKind, filterAuthor, filterQuery}; !reflect.DeepEqual(resp.Filters, want) {
		t.Errorf("filters = %v, want %v (from Describe)", resp.Filters, want)
	}
}

func TestGroundBeforeConfigure(t *testing.T) {
	_, err := sdktest.Ground(context.Background(), sdktest.Source(t, NewSource()), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "PAY"}}})
	if sdk.KindOf(err) != sdk.KindBadConfig {
		t.Fatalf("err = %v, want a bad_config error", err)
	}
}
