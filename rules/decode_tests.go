package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/testcase"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

func (d *decoder) decodeTest(b *hcl.Block) {
	t := &testcase.Case{Name: b.Labels[0], Range: b.DefRange}
	c := d.content(b.Body, testSchema)
	var input, expect *hcl.Block
	for _, blk := range c.Blocks {
		first := &input
		if blk.Type == "expect" {
			first = &expect
		}
		if *first != nil {
			d.add(Error(CheckDuplicateName, blk.DefRange, fmt.Sprintf("Duplicate %s block", blk.Type),
				fmt.Sprintf("Test %q already has an %s block at %s.", t.Name, blk.Type, (*first).DefRange)))
			continue
		}
		*first = blk
	}
	if input == nil {
		d.add(Error(CheckSchema, b.DefRange, "Missing input block", fmt.Sprintf("Test %q needs an input block.", t.Name)))
	} else {
		d.decodeTestInput(input, &t.Input)
	}
	if expect != nil {
		d.decodeTestExpect(expect, &t.Expect)
	}
	if d.define("test", t.Name, b.DefRange) {
		d.rs.Tests = append(d.rs.Tests, t)
	}
}

func (d *decoder) decodeTestInput(b *hcl.Block, in *testcase.Input) {
	c := d.content(b.Body, testInputSchema)
	d.str(c.Attributes, "query", &in.Query)
	d.stringLists(c.Attributes, "entities", &in.Entities)
	d.str(c.Attributes, "mode", &in.Mode)
	if a, ok := c.Attributes["intents"]; ok {
		for _, o := range d.objects(a, map[string]cty.Type{"type": cty.String, "confidence": cty.Number}, "type") {
			ti := testcase.Intent{Type: o["type"].AsString(), Confidence: 1}
			if v, ok := o["confidence"]; ok {
				ti.Confidence, _ = v.AsBigFloat().Float64()
				if ti.Confidence < 0 || ti.Confidence > 1 {
					d.add(Error(CheckOutOfRange, a.Expr.Range(), `"confidence" out of range`,
						fmt.Sprintf("Intent %q: confidence must be between 0 and 1, got %g.", ti.Type, ti.Confidence)))
				}
			}
			in.Intents = append(in.Intents, ti)
		}
	}
}

func (d *decoder) decodeTestExpect(b *hcl.Block, ex *testcase.Expect) {
	ex.Range = b.DefRange
	c := d.content(b.Body, testExpectSchema)
	if a, ok := c.Attributes["hypotheses"]; ok {
		ex.Hypotheses = []testcase.Hypothesis{}
		for _, o := range d.objects(a, map[string]cty.Type{"id": cty.String, "description": cty.String, "dependencies": cty.List(cty.String), "action": cty.String}, "id") {
			h := testcase.Hypothesis{ID: o["id"].AsString(), Dependencies: []string{}}
			if v, ok := o["description"]; ok {
				h.Description = v.AsString()
			}
			if v, ok := o["action"]; ok {
				h.Action = v.AsString()
				if !slices.Contains(Actions, h.Action) {
					d.add(Error(CheckInvalidValue, a.Expr.Range(), `Invalid "action"`,
						fmt.Sprintf("Hypothesis %q: action %q is none of %s.", h.ID, h.Action, strings.Join(Actions, ", "))))
				}
			}
			if v, ok := o["dependencies"]; ok {
				h.Dependencies = stringList(v)
			}
			ex.Hypotheses = append(ex.Hypotheses, h)
		}
	}
	d.stringLists(c.Attributes, "edges", &ex.Edges)
	if a, ok := c.Attributes["plans"]; ok {
		ex.Plans = []testcase.Plan{}
		for _, o := range d.objects(a, map[string]cty.Type{"id": cty.String, "description": cty.String, "sources": cty.List(cty.String), "priority": cty.Number}, "id") {
			p := testcase.Plan{ID: o["id"].AsString()}
			if v, ok := o["description"]; ok {
				p.Description = v.AsString()
			}
			if v, ok := o["sources"]; ok {
				p.Sources = stringList(v)
			}
			if v, ok := o["priority"]; ok {
				p.Priority, _ = wholeNumber(v)
			}
			ex.Plans = append(ex.Plans, p)
		}
	}
	if d.strs(c.Attributes, "queries", &ex.Queries) && ex.Queries == nil {
		ex.Queries = []string{}
	}
	d.strs(c.Attributes, "diagnostics", &ex.Diagnostics)
	d.str(c.Attributes, "mode", &ex.Mode)
	d.str(c.Attributes, "depth", &ex.Depth)
	if d.strs(c.Attributes, "ambiguities", &ex.Ambiguities) && ex.Ambiguities == nil {
		ex.Ambiguities = []string{}
	}
}

// objects decodes a list of objects whose attributes are among fields,
// converting each to its type; required must be present in every object.
func (d *decoder) objects(attr *hcl.Attribute, fields map[string]cty.Type, required string) []map[string]cty.Value {
	v, ok := d.value(attr, cty.DynamicPseudoType)
	if !ok {
		return nil
	}
	bad := func(format string, args ...any) []map[string]cty.Value {
		d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name), fmt.Sprintf(format, args...)))
		return nil
	}
	if t := v.Type(); !t.IsListType() && !t.IsTupleType() {
		return bad("A list of objects with attributes %s is required here.", fieldList(fields))
	}
	var out []map[string]cty.Value
	for it := v.ElementIterator(); it.Next(); {
		i, e := it.Element()
		at := i.AsBigFloat().String()
		if t := e.Type(); e.IsNull() || (!t.IsObjectType() && !t.IsMapType()) {
			return bad("Element %s must be an object with attributes %s.", at, fieldList(fields))
		}
		o := map[string]cty.Value{}
		for eit := e.ElementIterator(); eit.Next(); {
			k, fv := eit.Element()
			name := k.AsString()
			ty, known := fields[name]
			if !known {
				return bad("Element %s has attribute %q; the allowed attributes are %s.", at, name, fieldList(fields))
			}
			cv, err := convert.Convert(fv, ty)
			if err != nil || cv.IsNull() || nullElement(cv) >= 0 {
				return bad("Element %s: %q must be a %s.", at, name, ty.FriendlyName())
			}
			if ty == cty.Number {
				if _, whole := wholeNumber(cv); name == "priority" && !whole {
					return bad("Element %s: %q must be a whole number.", at, name)
				}
			}
			o[name] = cv
		}
		if _, ok := o[required]; !ok {
			return bad("Element %s is missing %q.", at, required)
		}
		out = append(out, o)
	}
	return out
}

func fieldList(fields map[string]cty.Type) string {
	return strings.Join(slices.Sorted(maps.Keys(fields)), ", ")
}
