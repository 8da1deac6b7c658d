package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
)

// decoder turns parsed files into a Ruleset, collecting every diagnostic.
// Names may be referred to across files, so references are resolved in
// compile, after every file has been decoded.
type decoder struct {
	cfg     config
	ctx     *hcl.EvalContext
	secrets map[string]bool
	remotes *remotes
	rs      *Ruleset
	diags   hcl.Diagnostics
	src     []byte // bytes of the file being decoded, for condition positions
	conds   *cond.Compiler

	defined     map[string]map[string]hcl.Range // block type → name → first definition
	refs        []reference
	workers     *workers
	jobs        []*laterJob // expensive compilations, run on the workers
	unsetPrio   []*Retrieval
	settingsAt  *hcl.Range
	loopAt      *hcl.Range
	validatorAt *hcl.Range
	traceAt     *hcl.Range
	profileAt   *hcl.Range
	ceilings    []depthCeiling
	sessionAt   *hcl.Range
	defaultMode *hcl.Attribute
	fallback    *hcl.Attribute
}

// reference is a name used somewhere that must be defined somewhere.
type reference struct {
	kind  string // "source", "agent", "entity", "intent" or "intent.hypothesis"
	name  string
	where hcl.Range
	attr  string
}

func newDecoder(cfg config, w *workers) *decoder {
	secrets := map[string]bool{}
	remotes := newRemotes(cfg)
	return &decoder{
		cfg:     cfg,
		ctx:     evalContext(cfg.lookupEnv, secrets, remotes),
		secrets: secrets,
		remotes: remotes,
		rs:      emptyRuleset(),
		conds:   cond.NewCompiler(cfg.limits()),
		defined: map[string]map[string]hcl.Range{},
		workers: w,
	}
}

// emptyRuleset returns a Ruleset with the defaults and no definitions.
func emptyRuleset() *Ruleset {
	rs := &Ruleset{
		Settings: Settings{Version: 1, MinConfidence: 0.3, DefaultMode: "discovery", Fallback: "fallback", ClarifyMargin: DefaultClarifyMargin},
		Trace:    ReasoningTrace{Enabled: true},
		Session:  defaultSession(),
		files:    map[string]*hcl.File{},
	}
	rs.resolveDefaults()
	return rs
}

func (d *decoder) add(diags ...*hcl.Diagnostic) { d.diags = append(d.diags, diags...) }

// define records a named definition, reporting a duplicate of an earlier one.
func (d *decoder) define(kind, name string, at hcl.Range) bool {
	names := d.defined[kind]
	if names == nil {
		names = map[string]hcl.Range{}
		d.defined[kind] = names
	}
	if first, dup := names[name]; dup {
		d.add(Error(CheckDuplicateName, at, fmt.Sprintf("Duplicate %s %q", kind, name),
			fmt.Sprintf("%s %q is already defined at %s.", kind, name, first)))
		return false
	}
	names[name] = at
	return true
}

// content takes a body's content through schema, tagging its problems.
func (d *decoder) content(body hcl.Body, schema *hcl.BodySchema) *hcl.BodyContent {
	c, diags := body.Content(schema)
	d.add(tag(diags, CheckSchema)...)
	return c
}

// decode takes one parsed file: its parse diagnostics, the file for
// snippets, and its blocks unless it has syntax errors (its partial body
// would only add confusing follow-up errors).
func (d *decoder) decode(name string, f *hcl.File, diags hcl.Diagnostics) {
	d.add(diags...)
	if f == nil {
		return
	}
	d.rs.files[name] = f
	if !diags.HasErrors() {
		d.decodeFile(f)
	}
}

func (d *decoder) decodeFile(f *hcl.File) {
	d.src = f.Bytes
	c := d.content(f.Body, fileSchema)
	for _, b := range c.Blocks {
		switch b.Type {
		case "nous":
			d.decodeSettings(b)
		case "source":
			d.decodeSource(b)
		case "agent":
			d.decodeAgent(b)
		case "intent":
			d.decodeIntent(b)
		case "dependency":
			d.decodeDependency(b)
		case "entity":
			d.decodeEntity(b)
		case "mode":
			d.decodeMode(b)
		case "tier":
			d.decodeTier(b)
		case "check":
			d.decodeCheck(b)
		case "loop":
			d.decodeLoop(b)
		case "validator":
			d.decodeValidator(b)
		case "reasoning_trace":
			d.decodeTrace(b)
		case "profile":
			d.decodeProfile(b)
		case "depth":
			d.decodeDepth(b)
		case "session":
			d.decodeSession(b)
		case "prompt":
			d.decodePrompt(b)
		case "test":
			d.decodeTest(b)
		}
	}
}

// single reports a second nous, loop, validator, reasoning_trace, profile or
// session block.
func (d *decoder) single(first **hcl.Range, b *hcl.Block) bool {
	if *first != nil {
		d.add(Error(CheckDuplicateName, b.DefRange, fmt.Sprintf("Duplicate %s block", b.Type),
			fmt.Sprintf("Only one %s block is allowed; the first is at %s.", b.Type, **first)))
		return false
	}
	r := b.DefRange
	*first = &r
	return true
}

// atLeast reports an attribute whose value is below least.
func (d *decoder) atLeast(attrs hcl.Attributes, name string, value, least int) {
	if a, ok := attrs[name]; ok && value < least {
		d.add(Error(CheckOutOfRange, a.Expr.Range(), fmt.Sprintf("%q out of range", name),
			fmt.Sprintf("%s must be at least %d, got %d.", name, least, value)))
	}
}

// fraction reports an attribute whose value is outside [0, 1].
func (d *decoder) fraction(attrs hcl.Attributes, name string, value float64) {
	if a, ok := attrs[name]; ok && (value < 0 || value > 1) {
		d.add(Error(CheckOutOfRange, a.Expr.Range(), fmt.Sprintf("%q out of range", name),
			fmt.Sprintf("%s must be between 0 and 1, got %g.", name, value)))
	}
}

// later schedules an independent compilation on the workers; compile waits
// for them all and reports their diagnostics in scheduling order. A job
// must write only to what nothing reads before compile.
func (d *decoder) later(job func() hcl.Diagnostics) {
	j := &laterJob{}
	d.jobs = append(d.jobs, j)
	d.workers.run(func() { j.diags = job() })
}

// laterJob holds the diagnostics of one scheduled compilation.
type laterJob struct{ diags hcl.Diagnostics }

// runJobs waits for the scheduled compilations and adds their diagnostics.
func (d *decoder) runJobs() {
	d.workers.stop()
	for _, j := range d.jobs {
		d.add(j.diags...)
	}
	d.jobs = nil
}
