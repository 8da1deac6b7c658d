package rules

import (
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// value evaluates an attribute and converts it to ty, reporting what was
// expected at the attribute's expression when it cannot.
func (d *decoder) value(attr *hcl.Attribute, ty cty.Type) (cty.Value, bool) {
	if v, ok := literalString(attr.Expr); ok && ty == cty.String {
		return v, true
	}
	v, diags := attr.Expr.Value(d.ctx)
	d.add(tag(diags, CheckType)...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if v.IsNull() {
		d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name),
			fmt.Sprintf("A %s is required here, not null.", ty.FriendlyName())))
		return cty.NilVal, false
	}
	out, err := convert.Convert(v, ty)
	if err != nil {
		detail := fmt.Sprintf("Expected %s, got %s.", ty.FriendlyNameForConstraint(), v.Type().FriendlyName())
		var pe cty.PathError
		if errors.As(err, &pe) && len(pe.Path) > 0 {
			detail = fmt.Sprintf("Expected %s: %s.", ty.FriendlyNameForConstraint(), err)
		}
		d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name), detail))
		return cty.NilVal, false
	}
	if !out.IsWhollyKnown() {
		d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name),
			"The value must be known when the rules are loaded."))
		return cty.NilVal, false
	}
	if i := nullElement(out); i >= 0 {
		d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name),
			fmt.Sprintf("Element %d is null; %s is required here.", i, ty.FriendlyNameForConstraint())))
		return cty.NilVal, false
	}
	return out, true
}

// nullElement returns the index of the first null element of a list, or
// -1 (also for any other type): converting ["a", null] to a list of
// strings keeps the null, which the element readers cannot take.
func nullElement(v cty.Value) int {
	if !v.Type().IsListType() {
		return -1
	}
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		if _, e := it.Element(); e.IsNull() {
			return i
		}
	}
	return -1
}

// literalString returns the value of a quoted string without
// interpolations, the most common attribute, without evaluating it: that
// takes most of the time of decoding a block.
func literalString(expr hcl.Expression) (cty.Value, bool) {
	t, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || !t.IsStringLiteral() {
		return cty.NilVal, false
	}
	v := t.Parts[0].(*hclsyntax.LiteralValueExpr).Val
	return v, v.Type() == cty.String && v.IsKnown() && !v.IsNull() && !v.IsMarked()
}

func (d *decoder) str(attrs hcl.Attributes, name string, dst *string) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	if v, ok := d.value(attr, cty.String); ok {
		*dst = v.AsString()
		return true
	}
	return false
}

func (d *decoder) flag(attrs hcl.Attributes, name string, dst *bool) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	if v, ok := d.value(attr, cty.Bool); ok {
		*dst = v.True()
		return true
	}
	return false
}

func (d *decoder) float(attrs hcl.Attributes, name string, dst *float64) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	if v, ok := d.value(attr, cty.Number); ok {
		*dst, _ = v.AsBigFloat().Float64()
		return true
	}
	return false
}

func (d *decoder) int(attrs hcl.Attributes, name string, dst *int) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	v, ok := d.value(attr, cty.Number)
	if !ok {
		return false
	}
	n, ok := wholeNumber(v)
	if !ok {
		d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name),
			fmt.Sprintf("A whole number is required here, got %s.", v.AsBigFloat().Text('g', -1))))
		return false
	}
	*dst = n
	return true
}

// wholeNumber returns v as an int when it is a whole number that fits.
func wholeNumber(v cty.Value) (int, bool) {
	f := v.AsBigFloat()
	if !f.IsInt() {
		return 0, false
	}
	n, acc := f.Int64()
	if acc != big.Exact || int64(int(n)) != n {
		return 0, false
	}
	return int(n), true
}

func (d *decoder) strs(attrs hcl.Attributes, name string, dst *[]string) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	if list, ok := literalStrings(attr.Expr); ok {
		*dst = list
		return true
	}
	v, ok := d.value(attr, cty.List(cty.String))
	if !ok {
		return false
	}
	*dst = stringList(v)
	return true
}

// literalStrings returns the elements of a list of quoted strings without
// interpolations without evaluating it: converting the tuple to a list
// costs more than decoding the rest of the block.
func literalStrings(expr hcl.Expression) ([]string, bool) {
	t, ok := expr.(*hclsyntax.TupleConsExpr)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(t.Exprs))
	for _, e := range t.Exprs {
		v, ok := literalString(e)
		if !ok {
			return nil, false
		}
		out = append(out, v.AsString())
	}
	return out, true
}

func stringList(v cty.Value) []string {
	out := make([]string, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		out = append(out, e.AsString())
	}
	return out
}

func (d *decoder) ints(attrs hcl.Attributes, name string, dst *[]int) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	v, ok := d.value(attr, cty.List(cty.Number))
	if !ok {
		return false
	}
	out := make([]int, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		n, ok := wholeNumber(e)
		if !ok {
			d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name), "A list of whole numbers is required here."))
			return false
		}
		out = append(out, n)
	}
	*dst = out
	return true
}

// stringLists decodes a map whose values are lists of strings; a single
// string value is taken as a list of one.
func (d *decoder) stringLists(attrs hcl.Attributes, name string, dst *map[string][]string) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	v, ok := d.value(attr, cty.Map(cty.DynamicPseudoType))
	if !ok {
		return false
	}
	out, ok := d.stringListsOf(attr, v)
	if ok {
		*dst = out
	}
	return ok
}

func (d *decoder) stringListsOf(attr *hcl.Attribute, v cty.Value) (map[string][]string, bool) {
	out := make(map[string][]string, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if e.IsNull() {
			out[k.AsString()] = nil
			continue
		}
		if s, err := convert.Convert(e, cty.String); err == nil && e.Type().IsPrimitiveType() {
			out[k.AsString()] = []string{s.AsString()}
			continue
		}
		l, err := convert.Convert(e, cty.List(cty.String))
		if err != nil || l.IsNull() || nullElement(l) >= 0 {
			d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", attr.Name),
				fmt.Sprintf("Each value must be a string or a list of strings; %q is a %s.", k.AsString(), e.Type().FriendlyName())))
			return nil, false
		}
		out[k.AsString()] = stringList(l)
	}
	return out, true
}

// numbers decodes a map of numbers.
func (d *decoder) numbers(attrs hcl.Attributes, name string, dst *map[string]float64) bool {
	attr, ok := attrs[name]
	if !ok {
		return false
	}
	v, ok := d.value(attr, cty.Map(cty.Number))
	if !ok {
		return false
	}
	out := make(map[string]float64, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if e.IsNull() {
			d.add(Error(CheckType, attr.Expr.Range(), fmt.Sprintf("Invalid value for %q", name),
				fmt.Sprintf("Each value must be a number; %q is null.", k.AsString())))
			return false
		}
		out[k.AsString()], _ = e.AsBigFloat().Float64()
	}
	*dst = out
	return true
}

func (d *decoder) duration(attrs hcl.Attributes, name string, dst *time.Duration) bool {
	var s string
	if !d.str(attrs, name, &s) {
		return false
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		d.add(Error(CheckInvalidValue, attrs[name].Expr.Range(), fmt.Sprintf("Invalid duration for %q", name),
			fmt.Sprintf("A Go duration such as \"45s\" or \"2m30s\" is required here, got %q.", s)))
		return false
	}
	*dst = dur
	return true
}

// oneOf decodes a string that must be one of allowed.
func (d *decoder) oneOf(attrs hcl.Attributes, name string, dst *string, allowed ...string) bool {
	var s string
	if !d.str(attrs, name, &s) {
		return false
	}
	for _, a := range allowed {
		if s == a {
			*dst = s
			return true
		}
	}
	d.add(Error(CheckInvalidValue, attrs[name].Expr.Range(), fmt.Sprintf("Invalid value for %q", name),
		fmt.Sprintf("Expected one of %q, got %q.", allowed, s)))
	return false
}

// goValue converts a known cty value to plain Go values: string, bool,
// int64 or float64, []any and map[string]any.
func goValue(v cty.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString()
	case t == cty.Bool:
		return v.True()
	case t == cty.Number:
		f := v.AsBigFloat()
		if n, acc := f.Int64(); acc == big.Exact {
			return n
		}
		x, _ := f.Float64()
		return x
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, goValue(e))
		}
		return out
	case t.IsMapType() || t.IsObjectType():
		out := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			out[k.AsString()] = goValue(e)
		}
		return out
	}
	return nil
}
