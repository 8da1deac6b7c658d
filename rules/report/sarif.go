package report

import (
	"io"

	"github.com/nous-dev/nous/rules"
	"github.com/owenrumney/go-sarif/v2/sarif"
)

// InformationURI is where SARIF viewers link the tool to.
const InformationURI = "https://github.com/nous-dev/nous"

// writeSARIF writes a SARIF 2.1.0 log with one run: the driver lists every
// check as a rule (so viewers can show its help), and each diagnostic is a
// result at a physical location.
func writeSARIF(w io.Writer, in Input) error {
	log, err := sarif.New(sarif.Version210)
	if err != nil {
		return err
	}
	run := sarif.NewRunWithInformationURI("nous", InformationURI)
	// hcl counts columns in characters, not the UTF-16 units SARIF assumes.
	run.WithColumnKind("unicodeCodePoints")
	ruleIndex := map[string]int{}
	for i, c := range rules.Checks {
		ruleIndex[c.Name] = i
		run.AddRule(c.Name).
			WithName(c.Name).
			WithShortDescription(sarif.NewMultiformatMessageString(c.Help)).
			WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(levelOf(c.Severity)))
	}
	for _, name := range fileNames(in) {
		run.AddDistinctArtifact(name)
	}
	for _, d := range in.Diagnostics {
		text := d.Summary
		if d.Detail != "" {
			text += "\n" + d.Detail
		}
		result := run.CreateResultForRule(checkOf(d)).
			WithRuleIndex(ruleIndex[checkOf(d)]).
			WithLevel(levelOf(d.Severity)).
			WithMessage(sarif.NewTextMessage(text))
		if l := locate(d); l.file != "" {
			region := sarif.NewRegion().WithStartLine(max(l.line, 1)).WithStartColumn(max(l.column, 1))
			if l.endLine >= l.line && l.endColumn > 0 {
				region.WithEndLine(l.endLine).WithEndColumn(l.endColumn)
			}
			result.AddLocation(sarif.NewLocationWithPhysicalLocation(
				sarif.NewPhysicalLocation().
					WithArtifactLocation(sarif.NewSimpleArtifactLocation(l.file)).
					WithRegion(region)))
		}
	}
	log.AddRun(run)
	return log.PrettyWrite(w)
}
