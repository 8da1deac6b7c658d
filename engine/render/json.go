package render

import (
	"encoding/json"
	"io"

	"github.com/nous-dev/nous/engine"
)

// JSON writes the plan as indented JSON with the source documents' field
// names, without HTML escaping, ending in a newline.
func JSON(w io.Writer, p *engine.Plan) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(p)
}
