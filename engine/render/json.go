package render

import (
	"io"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/jsonindent"
)

// JSON writes the plan as indented JSON with the source documents' field
// names, without HTML escaping, ending in a newline.
func JSON(w io.Writer, p *engine.Plan) error { return jsonindent.Encode(w, p) }
