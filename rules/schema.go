package rules

import "github.com/hashicorp/hcl/v2"

// The block schemas of the DSL. Each decode function takes its body's content
// through one of these, so unknown attributes and blocks are reported by HCL.

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "nous"},
	{Type: "source", LabelNames: []string{"name"}},
	{Type: "agent", LabelNames: []string{"name"}},
	{Type: "intent", LabelNames: []string{"name"}},
	{Type: "dependency", LabelNames: []string{"name"}},
	{Type: "entity", LabelNames: []string{"name"}},
	{Type: "mode", LabelNames: []string{"name"}},
	{Type: "tier", LabelNames: []string{"source"}},
	{Type: "check", LabelNames: []string{"name"}},
	{Type: "loop"},
	{Type: "validator"},
	{Type: "reasoning_trace"},
	{Type: "profile"},
	{Type: "depth", LabelNames: []string{"name"}},
	{Type: "session"},
	{Type: "prompt", LabelNames: []string{"role"}},
	{Type: "test", LabelNames: []string{"name"}},
}}

var settingsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "version"}, {Name: "min_confidence"}, {Name: "default_mode"}, {Name: "fallback"}, {Name: "clarify_margin"},
}}

// sourceSchema and agentSchema share plugin, sha256 and config; each also
// accepts the other's own attribute so decoding can say where it belongs.
var sourceSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "plugin", Required: true}, {Name: "sha256"}, {Name: "config"},
	{Name: "priority"}, {Name: "kind"}, {Name: "setup"},
	{Name: "timeout"}, {Name: "fallback"},
}}

var agentSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "plugin", Required: true}, {Name: "sha256"}, {Name: "config"},
	{Name: "timeout"}, {Name: "fallback"},
	{Name: "priority"}, {Name: "kind"}, {Name: "setup"},
}}

var intentSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "pattern"}, {Name: "requires"}, {Name: "conflicts"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "detect"},
		{Type: "hypothesis", LabelNames: []string{"name"}},
		{Type: "retrieve", LabelNames: []string{"name"}},
	},
}

var detectSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "when", Required: true}, {Name: "confidence"},
}}

var hypothesisSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "description"}, {Name: "action"}, {Name: "agent"}, {Name: "role"}, {Name: "depends_on"},
}}

var retrieveSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "description"}, {Name: "source", Required: true}, {Name: "kind"}, {Name: "hypothesis"}, {Name: "priority"},
	{Name: "filters"}, {Name: "defaults"}, {Name: "fixed"}, {Name: "limit"}, {Name: "required"}, {Name: "rank"}, {Name: "rank_ignore"},
	{Name: "rank_weights"}, {Name: "when"},
}}

var dependencySchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "when"}, {Name: "from", Required: true}, {Name: "to", Required: true},
}}

var entitySchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "pattern"}, {Name: "patterns"}, {Name: "ignore"}, {Name: "finder"}, {Name: "ground"}, {Name: "matches"},
}}

var modeSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "when"}, {Name: "keep"}, {Name: "warn"}, {Name: "on_empty"}, {Name: "compare"},
}}

var tierSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "tier", Required: true}, {Name: "type"},
}}

var checkSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "applies"}, {Name: "assert", Required: true}, {Name: "message"}, {Name: "on_fail"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "refine"}},
}

var refineSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "op"}, {Name: "drop_filters"}, {Name: "set_filters"}, {Name: "limit"}, {Name: "nearest"},
}}

var loopSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "max_passes"}, {Name: "ttl"}, {Name: "refine_per_step"}, {Name: "refine_total"}, {Name: "workers"}, {Name: "max_records"},
}}

var validatorSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "agent", Required: true}, {Name: "when"}, {Name: "steps"},
}}

var sessionSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "max_turns"}, {Name: "max_answer_bytes"}, {Name: "max_sessions"}, {Name: "max_age"},
	{Name: "context_turns"}, {Name: "follow_up"}, {Name: "inherit"}, {Name: "not_inherited"},
}}

var reasoningTraceSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "enabled"},
}}

var profileSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "deepen"}, {Name: "ease"},
}}

var depthSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "level", Required: true}, {Name: "description"}, {Name: "when"},
	{Name: "max_passes"}, {Name: "ttl"}, {Name: "max_records"},
}}

var promptSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "template", Required: true},
}}

var testSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "input"}, {Type: "expect"}}}

var testInputSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "query"}, {Name: "intents"}, {Name: "entities"}, {Name: "mode"},
}}

var testExpectSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "hypotheses"}, {Name: "edges"}, {Name: "plans"}, {Name: "queries"}, {Name: "diagnostics"}, {Name: "mode"}, {Name: "ambiguities"}, {Name: "depth"},
}}
