package sdk

// Severity of a plugin diagnostic.
type Severity int

// Severities, least severe first.
const (
	SeverityWarning Severity = iota + 1
	SeverityError
)

// Diagnostic is a problem a plugin found in its configuration.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail,omitempty"`
	Path     string   `json:"path,omitempty"` // config key, e.g. "base_url"
}

// Diagnostics is a list of diagnostics.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}
