package report

import (
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
)

// writeText prints each diagnostic with its source line and the problem
// underlined, its check name after the summary.
func writeText(w io.Writer, in Input) error {
	tw := hcl.NewDiagnosticTextWriter(w, in.Files, 0, false)
	for _, d := range in.Diagnostics {
		shown := *d
		shown.Summary = fmt.Sprintf("%s [%s]", d.Summary, checkOf(d))
		if err := tw.WriteDiagnostic(&shown); err != nil {
			return err
		}
	}
	errs, warns := Count(in.Diagnostics)
	_, err := fmt.Fprintf(w, "%d error(s), %d warning(s)\n", errs, warns)
	return err
}
