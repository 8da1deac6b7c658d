package template

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// Mode compliance values, as the actor-critic design writes them.
const (
	compliant = "符合"
	violation = "違反"
)

// fewRecords is the evidence count below which the critic warns.
const fewRecords = 3

// review is the rule-based critic. It rejects a draft whose evidence does
// not hold (empty, nothing cited, no sources section, counts beyond the
// records, untrusted tiers in strict mode), warns about minor problems
// (thin evidence, flagged tiers, missing dates, nothing in the requested
// period, one-sided monitoring) and
// passes the rest.
func review(cfg Config, in sdk.CriticInput, records []sdk.Record) sdk.CriticOutput {
	l := labelsFor(cfg.Language)
	ev := gather(records).with(in.Evidence)
	f := inspect(l, in.Draft, ev)
	var rejects, warns, suggestions, gaps []string
	compliance := compliant

	switch {
	case f.empty:
		rejects = append(rejects, "the draft is empty")
		suggestions = append(suggestions, "Write a draft that answers the question from the context records.")
		gaps = append(gaps, "No answer was given to: "+text.OneLine(in.Query))
	case len(records) == 0:
		warns = append(warns, "no context records were provided, so the draft cannot be checked against evidence")
		gaps = append(gaps, "The draft's statements have no records to support them.")
	default:
		if len(f.cited) == 0 {
			rejects = append(rejects, fmt.Sprintf("the draft cites none of the %s in the context", plural(len(records), "record", "records")))
			suggestions = append(suggestions, "Cite the records the answer relies on by ID, e.g. "+ids(ev.records, 3)+".")
			gaps = append(gaps, "No statement in the draft is tied to a record.")
		}
		if f.noSources {
			rejects = append(rejects, "it has no Sources section")
			suggestions = append(suggestions, "Add a Sources section listing each cited record with its URL.")
			gaps = append(gaps, "The draft does not say where its statements come from.")
		}
		for _, c := range f.overclaims {
			rejects = append(rejects, c)
			suggestions = append(suggestions, "Correct the count: "+c+".")
			gaps = append(gaps, "Unsupported count: "+c+".")
		}
		if len(f.cited) > 0 && len(f.cited) < fewRecords && len(ev.records) > 0 {
			warns = append(warns, fmt.Sprintf("only %s supports the answer", plural(len(f.cited), "record", "records")))
			suggestions = append(suggestions, "Gather more evidence before drawing conclusions.")
		}
		if f.noDates {
			warns = append(warns, "it gives no dates although the records are dated")
			suggestions = append(suggestions, "State when the changes happened (the time span of the evidence).")
			gaps = append(gaps, "The time frame of the answer is not stated.")
		}
		if f.offPeriod != "" {
			warns = append(warns, fmt.Sprintf("none of the records falls in the requested period (%s): the answer rests on records from outside it", f.offPeriod))
			suggestions = append(suggestions, "Say first that nothing was found in the requested period, then what the records outside it show.")
			gaps = append(gaps, "Nothing in the evidence covers the requested period "+f.offPeriod+".")
		}
		if f.uncited > 0 && len(f.cited) > 0 {
			suggestions = append(suggestions, plural(f.uncited, "record is", "records are")+" in the context but not cited; say whether they matter.")
		}
		rejects, warns, suggestions, gaps, compliance = judgeMode(in.Mode, f, rejects, warns, suggestions, gaps)
	}

	status := sdk.VerdictPass
	switch {
	case len(rejects) > 0:
		status = sdk.VerdictReject
	case len(warns) > 0:
		status = sdk.VerdictWarn
	}
	return sdk.CriticOutput{
		Status:         status,
		Critique:       critique(status, len(f.cited), len(records), rejects, warns),
		Suggestions:    nonNil(suggestions),
		ModeCompliance: compliance,
		LogicalGaps:    nonNil(gaps),
	}
}

// judgeMode applies the tier rules of the mode to the cited records.
func judgeMode(mode string, f findings, rejects, warns, suggestions, gaps []string) ([]string, []string, []string, []string, string) {
	compliance := compliant
	switch mode {
	case "strict":
		if len(f.lowTier) > 0 {
			compliance = violation
			rejects = append(rejects, fmt.Sprintf("strict mode allows tier 1–2 sources only, but it cites %s from unknown or tier ≥ 3 sources (%s)",
				plural(len(f.lowTier), "record", "records"), ids(f.lowTier, 5)))
			suggestions = append(suggestions, "Remove the records from unknown or tier ≥ 3 sources, or replace them with tier 1–2 evidence.")
			gaps = append(gaps, "Claims rest on sources strict mode does not trust: "+ids(f.lowTier, 5)+".")
		}
	case "monitor":
		var high, low int
		for _, r := range f.cited {
			if lowTier(r) {
				low++
			} else {
				high++
			}
		}
		if len(f.cited) > 0 && (high == 0 || low == 0) {
			warns = append(warns, "monitor mode compares official (tier 1–2) and other sources, but the draft cites only one side")
			suggestions = append(suggestions, "Cite both tier 1–2 and tier ≥ 3 sources and compare what they say.")
		}
	default:
		if len(f.lowTier) > 0 {
			warns = append(warns, fmt.Sprintf("it cites %s from unknown or tier ≥ 3 sources (%s)", plural(len(f.lowTier), "record", "records"), ids(f.lowTier, 5)))
			suggestions = append(suggestions, "Mark statements that rest on unknown or tier ≥ 3 sources as unverified.")
		}
	}
	return rejects, warns, suggestions, gaps, compliance
}

// critique is the review in prose: the verdict and every reason for it.
func critique(status string, cited, total int, rejects, warns []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the draft cites %d of %s.", status, cited, plural(total, "context record", "context records"))
	if len(rejects) > 0 {
		b.WriteString(" Rejected because " + joinAnd(rejects) + ".")
	}
	if len(warns) > 0 {
		b.WriteString(" Warnings: " + joinAnd(warns) + ".")
	}
	if len(rejects) == 0 && len(warns) == 0 {
		b.WriteString(" Every check passed: the claims are backed by cited records, counts match the evidence and the sources are listed.")
	}
	return b.String()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
