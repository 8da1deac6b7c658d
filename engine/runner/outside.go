package runner

// Values of StepResult.Outside and of a record's FieldOutside.
const (
	OutsideBefore = "nearest_before" // the most recent activity before the asked period
	OutsideAfter  = "nearest_after"  // the oldest activity after the asked period
)

// FieldOutside is the record field that marks a record found outside the
// asked period (OutsideBefore or OutsideAfter), for agents and templates.
const FieldOutside = "nous.outside"
