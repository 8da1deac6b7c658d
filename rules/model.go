package rules

import (
	"maps"
	"slices"
	"sync"
	"text/template"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/rules/testcase"
)

// Ruleset is a compiled rules file (or directory of files). It is immutable
// after Load and safe for concurrent use.
type Ruleset struct {
	Settings     Settings
	Sources      []*Source
	Agents       []*Agent
	Intents      []*Intent // in declaration order
	Dependencies []*Dependency
	Entities     []*Entity
	Modes        []*Mode
	Tiers        []*Tier
	Checks       []*Check
	Prompts      []*Prompt
	Loop         Loop
	Validator    *Validator // nil: no agent validates the passes
	Trace        ReasoningTrace
	Profile      *Profile // nil when the rules have no profile block
	Depths       []*Depth // by level, lowest first
	Session      Session
	Tests        []*testcase.Case

	index     index
	files     map[string]*hcl.File
	navigable sync.Once // files all have their navigation
	secrets   []string
}

type index struct {
	sources  map[string]*Source
	agents   map[string]*Agent
	intents  map[string]*Intent
	entities map[string]*Entity
	modes    map[string]*Mode
	tiers    map[string]*Tier
	prompts  map[string]*Prompt
}

// Source returns the source named name, or nil.
func (r *Ruleset) Source(name string) *Source { return r.index.sources[name] }

// Agent returns the agent named name, or nil.
func (r *Ruleset) Agent(name string) *Agent { return r.index.agents[name] }

// Intent returns the intent template named name, or nil.
func (r *Ruleset) Intent(name string) *Intent { return r.index.intents[name] }

// Entity returns the entity named name, or nil.
func (r *Ruleset) Entity(name string) *Entity { return r.index.entities[name] }

// Mode returns the mode named name, or nil.
func (r *Ruleset) Mode(name string) *Mode { return r.index.modes[name] }

// Tier returns the tier entry for a record source (site) name, or nil.
func (r *Ruleset) Tier(source string) *Tier { return r.index.tiers[source] }

// Prompt returns the prompt template for an agent role, or nil.
func (r *Ruleset) Prompt(role string) *Prompt { return r.index.prompts[role] }

// Files returns the parsed rule files by name, for diagnostic snippets.
// The map is a copy; the files must not be modified.
func (r *Ruleset) Files() map[string]*hcl.File {
	r.navigable.Do(r.navigate)
	return maps.Clone(r.files)
}

// navigate parses again, in parallel, the files whose syntax trees were
// loaded rather than parsed (see Parsed), for the navigation that only
// hclsyntax makes: diagnostics name the block around what they point at.
func (r *Ruleset) navigate() {
	parsed := make(map[string]*hcl.File)
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for name, f := range r.files {
		if _, native := f.Body.(*hclsyntax.Body); native && f.Nav == nil {
			wg.Go(func() {
				if p, _ := ParseFile(name, f.Bytes); p != nil {
					mu.Lock()
					parsed[name] = p
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	maps.Copy(r.files, parsed)
}

// Secrets returns the values env() read from variables whose names look
// secret (containing TOKEN, KEY, SECRET or PASSWORD), for redaction.
func (r *Ruleset) Secrets() []string { return slices.Clone(r.secrets) }

// Hypothesis returns the intent's hypothesis named name, or nil.
func (in *Intent) Hypothesis(name string) *Hypothesis {
	for _, h := range in.Hypotheses {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// Settings is the nous block.
type Settings struct {
	Version       int
	MinConfidence float64 // intents below it are skipped (0.3 by default)
	DefaultMode   string
	Fallback      string // intent template used for unknown intent types ("fallback")
	// ClarifyMargin is how close two conflicting intents' confidences must
	// be for the question to be asked back (DefaultClarifyMargin).
	ClarifyMargin float64
}

// Source is a source block: a logical data source served by a plugin.
type Source struct {
	Name     string
	Plugin   string // "builtin:NAME", an external plugin name, or a path; "" when not configured
	SHA256   string // optional pin of the plugin binary
	Priority int    // default priority of retrievals on this source
	Kind     string // record kind asked for when a request names none ("issue"); "" leaves it to the plugin
	Setup    string // how to configure the source, said when Plugin is ""
	Config   map[string]any
	Range    hcl.Range
}

// Configured reports whether a plugin serves the source: plugin = "" says
// it is not configured here (a token is missing, say), and Setup says how.
func (s *Source) Configured() bool { return s.Plugin != "" }

// Agent is an agent block: an LLM agent served by a plugin.
type Agent struct {
	Name     string
	Plugin   string
	SHA256   string
	Timeout  time.Duration
	Fallback string // plugin that answers when Plugin is unreachable ("builtin:template"); "" means none
	Config   map[string]any
	Range    hcl.Range
}

// Pattern is how an intent's hypotheses depend on each other.
type Pattern string

// Dependency patterns.
const (
	PatternChain    Pattern = "chain"    // each hypothesis depends on the one before
	PatternParallel Pattern = "parallel" // none depends on another
	PatternFanIn    Pattern = "fan_in"   // the last depends on all others
	PatternExplicit Pattern = "explicit" // only depends_on edges
)

// Intent is an intent template.
type Intent struct {
	Name       string
	Pattern    Pattern
	Detect     *Detect // nil when the intent is never detected from a query
	Hypotheses []*Hypothesis
	Retrievals []*Retrieval
	// Requires names the entities the intent cannot act without: a question
	// that names none of one is asked back (missing_entity).
	Requires []string
	// Conflicts names the intents whose answer excludes this one's (doing
	// a command or explaining how to): both detected within the clarify
	// margin, the question is asked back (intent). Either side may say it.
	Conflicts []string
	// Edges are the resolved dependencies between the hypotheses: the
	// pattern's edges, then depends_on's, in hypothesis order, no duplicates.
	Edges []Edge
	Range hcl.Range
}

// Edge says that hypothesis To depends on hypothesis From (indices into
// Intent.Hypotheses): From must complete before To starts.
type Edge struct {
	From, To int
	// Range is where the edge comes from: the depends_on element, or the
	// dependent hypothesis block for an edge implied by the pattern.
	Range hcl.Range
}

// Detect detects an intent from the raw query.
type Detect struct {
	When       *cond.Condition // QueryEnv
	Confidence float64
	Range      hcl.Range
}

// Hypothesis is one reasoning step of an intent template.
type Hypothesis struct {
	Name        string
	Description string
	Action      string   // retrieve | filter | rank | aggregate | stats | agent | effect | "" (no-op)
	Agent       string   // agent name when the step runs an agent
	Role        string   // agent role (analyst, critic, writer, clarification)
	DependsOn   []string // hypothesis names within the intent
	Range       hcl.Range
}

// Retrieval is a retrieval plan template of an intent.
type Retrieval struct {
	Name        string
	Description string
	Source      string
	Kind        string // record kind it needs ("issue"); "" takes what the source serves by default
	Hypothesis  string // name of the hypothesis that runs it; default the intent's first retrieve step
	Priority    int    // resolved: the block's, else the source's
	Filters     []string
	Defaults    map[string][]string // used when the entity is absent
	Fixed       map[string][]string // always used: the question's values for these entities are not applied
	Limit       int
	Optional    bool               // required = false: the answer can do without it (see engine.RetrievalPlan.Optional)
	Rank        bool               // rank = true: its records are ordered by relevance to the question, limit keeps the first
	RankIgnore  []string           // words of the question ranking leaves out (besides the engine's function words)
	RankWeights map[string]float64 // file glob → factor of a matching record's relevance
	When        *cond.Condition    // QueryEnv; nil means always
	Range       hcl.Range

	hypothesisAt hcl.Range
}

// Dependency is a cross-intent edge added when its condition holds.
type Dependency struct {
	Name                       string
	When                       *cond.Condition // QueryEnv; nil means always
	FromIntent, FromHypothesis string
	ToIntent, ToHypothesis     string
	Range                      hcl.Range
}

// Entity extracts entity values from the raw query (see Entity.Extract).
type Entity struct {
	Name     string
	Patterns []*cond.Regexp // value is capture group 1 when present, else the whole match
	Ignore   []string       // values dropped from the matches, compared case-insensitively
	// Finder names a built-in extractor run instead of patterns (see
	// Finders); its matches are masked from the query before the pattern
	// entities run, so "Q1 2024" is a date and not also a project "Q1".
	Finder string
	// Ground is the term kind (sdk.TermPath, …) the sources are asked to
	// confirm each value as; empty keeps values as written.
	Ground string
	// Matches says what a value grounded to several things means:
	// MatchesAny (an OR: a name matching several paths) or MatchesOne (the
	// question meant one of them: it is asked back, multiple_matches).
	Matches string
	Range   hcl.Range
}

// Values of Entity.Matches.
const (
	MatchesAny = "any"
	MatchesOne = "one"
)

// Finders are the built-in extractors an entity can name: "dates" finds
// the date expressions sdk/timerange resolves.
var Finders = []string{FinderDates}

// FinderDates is the finder of date expressions.
const FinderDates = "dates"

// GroundKinds are the term kinds an entity can be grounded as.
var GroundKinds = []string{"path", "author", "ref", "project", "label", "state"}

// Mode is a source-tier mode (strict, discovery, monitor, …).
type Mode struct {
	Name    string
	When    *cond.Condition // QueryEnv: selects the mode from the query; nil means never
	Keep    *cond.Condition // ItemEnv: records kept; nil keeps all
	Warn    *cond.Condition // ItemEnv: records flagged with the [Tier N | type] prefix
	OnEmpty string          // "error" gives the "no valid sources" error when nothing is kept
	Compare []int           // tiers compared side by side (monitor)
	Range   hcl.Range
}

// Tier is a tier-table entry for a record source (site) name.
type Tier struct {
	Source string
	Tier   int
	Type   string
	Range  hcl.Range
}

// Check is a semantic validation rule run after each step.
type Check struct {
	Name    string
	Applies *cond.Condition // StepEnv; nil applies to every step
	Assert  *cond.Condition // StepEnv
	Message string
	OnFail  string // refine | warn | fail
	Refine  *Refine
	Range   hcl.Range
}

// Refine is the refinement delta a failed check asks for.
type Refine struct {
	Op          string // ADD | MODIFY | REMOVE | REPLACE
	DropFilters []string
	SetFilters  map[string][]string
	Limit       int
	// Nearest looks around an empty asked period instead of answering
	// another question: "before" re-runs the step for the most recent
	// record before the period, "after" for the oldest after it. The
	// records found are marked as outside the period; "" is off.
	Nearest string
	Range   hcl.Range
}

// Values of Refine.Nearest.
const (
	NearestBefore = "before"
	NearestAfter  = "after"
)

// Prompt is the instruction template of an agent role (text/template).
type Prompt struct {
	Role     string
	Template string
	Parsed   *template.Template // Template parsed with PromptFuncs and missingkey=error
	Range    hcl.Range
}

// ReasoningTrace is the reasoning_trace block: the trace document's
// feature flag.
type ReasoningTrace struct {
	Enabled bool // record the reasoning trace; true unless the rules say false
}

// Session is the session block: the bounds of the conversations `nous ask
// --session` keeps, and what a follow-up question takes from the turn
// before it.
type Session struct {
	MaxTurns       int           // turns a session keeps, the oldest dropped; 20
	MaxAnswerBytes int           // bytes of each answer kept, after redaction; 4000
	MaxSessions    int           // sessions kept, the least recently used removed; 100
	MaxAge         time.Duration // a session untouched this long is removed; 30 days
	ContextTurns   int           // earlier turns the agents see; 3
	// FollowUp (cond.QueryEnv, on the new question alone) says whether it
	// continues the turn before; nil: no question does.
	FollowUp *cond.Condition
	// Inherit names what a follow-up takes from the turn before when it
	// names none itself: entity names, and InheritIntents.
	Inherit []string
	// NotInherited names the intents a follow-up never takes (a greeting,
	// help, a command): the question is read on its own.
	NotInherited []string
}

// InheritIntents in Session.Inherit lets a follow-up in which no detect
// rule matched take the intents of the turn before.
const InheritIntents = "intents"

// Loop bounds the multi-pass execution loop.
type Loop struct {
	MaxPasses     int           // 3
	TTL           time.Duration // 60s
	RefinePerStep int           // 3
	RefineTotal   int           // 10
	Workers       int           // parallel steps; 4
	MaxRecords    int           // records a step holds and shows the agents; the rest are only counted; 1000
}

// Validator configures the semantic validation an agent makes at each
// pass's evaluate phase, next to the checks.
type Validator struct {
	Agent string          // the agent block that validates
	When  *cond.Condition // cond.PassEnv: whether this pass is validated; nil is every pass
	Steps *cond.Condition // cond.StepEnv: which settled steps it judges; nil is every one
	Range hcl.Range
}

// Profile is the profile block: how the run's depth is re-assessed at each
// pass boundary (cond.ProfileEnv, its Pass the finished pass's results).
type Profile struct {
	Deepen *cond.Condition // one level deeper; nil never deepens
	Ease   *cond.Condition // one level shallower, when Deepen does not hold; nil never eases
	Range  hcl.Range
}

// Depth is a depth block: one reasoning-depth level and its budget. A budget
// left unset (0) is the loop block's.
type Depth struct {
	Name        string
	Level       int // 1 or more; the lowest level is the floor
	Description string
	When        *cond.Condition // cond.ProfileEnv: the level fits the task; nil never chooses it (but the floor)
	MaxPasses   int
	TTL         time.Duration
	MaxRecords  int
	Range       hcl.Range
	LevelAt     hcl.Range // of the level value
}
