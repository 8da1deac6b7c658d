package engine

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/cond"
)

// Profile is a plan's task profile: what the question asks of a run,
// counted from the question and its plan, and the reasoning depth the
// rules chose for it.
type Profile struct {
	Dimensions Dimensions `json:"dimensions"`
	Depth      Depth      `json:"depth"`
	Reason     string     `json:"reason"` // which condition chose the depth
}

// Dimensions are the task profile's counts; the depth conditions read them
// as profile.NAME (cond.Profile, whose fields they mirror).
type Dimensions struct {
	Words       int `json:"words"`
	Intents     int `json:"intents"`
	Entities    int `json:"entities"`
	Constraints int `json:"constraints"`
	Hypotheses  int `json:"hypotheses"`
	AgentSteps  int `json:"agent_steps"`
	Retrievals  int `json:"retrievals"`
	Sources     int `json:"sources"`
}

// Depth is a reasoning-depth level and the budget it gives a run.
type Depth struct {
	Level      int
	Name       string
	MaxPasses  int
	TTL        time.Duration
	MaxRecords int
}

// depthJSON is Depth as JSON: the TTL as a duration string ("45s").
type depthJSON struct {
	Level      int    `json:"level"`
	Name       string `json:"name"`
	MaxPasses  int    `json:"max_passes"`
	TTL        string `json:"ttl"`
	MaxRecords int    `json:"max_records"`
}

// MarshalJSON writes the depth with its TTL as a duration string.
func (d Depth) MarshalJSON() ([]byte, error) {
	return json.Marshal(depthJSON{Level: d.Level, Name: d.Name, MaxPasses: d.MaxPasses, TTL: d.TTL.String(), MaxRecords: d.MaxRecords})
}

// UnmarshalJSON reads a depth written by MarshalJSON.
func (d *Depth) UnmarshalJSON(data []byte) error {
	var j depthJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	ttl, err := time.ParseDuration(j.TTL)
	if err != nil {
		return fmt.Errorf("depth %q: ttl: %w", j.Name, err)
	}
	*d = Depth{Level: j.Level, Name: j.Name, MaxPasses: j.MaxPasses, TTL: ttl, MaxRecords: j.MaxRecords}
	return nil
}

// Limits returns ceiling with the depth's budget (its passes, TTL and
// records) where the depth sets one below the ceiling.
func (d Depth) Limits(ceiling Limits) Limits {
	l := ceiling
	if d.MaxPasses > 0 {
		l.MaxPasses = min(d.MaxPasses, l.MaxPasses)
	}
	if d.TTL > 0 {
		l.TTL = min(d.TTL, l.TTL)
	}
	if d.MaxRecords > 0 {
		l.MaxRecords = min(d.MaxRecords, l.MaxRecords)
	}
	return l
}

// Depths is the rules' reasoning-depth levels and how a run re-assesses
// them at pass boundaries.
type Depths struct {
	Levels []DepthLevel    // lowest first; the first is the floor
	Deepen *cond.Condition // cond.ProfileEnv; nil never deepens
	Ease   *cond.Condition // cond.ProfileEnv; nil never eases

	deepenWhy, easeWhy string // why Reassess moved the depth
}

// DepthLevel is a level and the condition that chooses it.
type DepthLevel struct {
	Depth
	When *cond.Condition // cond.ProfileEnv; nil: only as the floor or by re-assessment
	why  string          // why Choose chose it: its when
}

// compileDepths returns the rules' depth levels, nil when they define none.
func compileDepths(rs *rules.Ruleset) *Depths {
	if len(rs.Depths) == 0 {
		return nil
	}
	ds := &Depths{Levels: make([]DepthLevel, len(rs.Depths))}
	for i, d := range rs.Depths {
		ds.Levels[i] = DepthLevel{Depth: Depth{Level: d.Level, Name: d.Name, MaxPasses: d.MaxPasses, TTL: d.TTL, MaxRecords: d.MaxRecords}, When: d.When}
		if d.When != nil {
			ds.Levels[i].why = fmt.Sprintf("depth %q: when = %q", d.Name, d.When.Source)
		}
	}
	if p := rs.Profile; p != nil {
		ds.Deepen, ds.Ease = p.Deepen, p.Ease
		if p.Deepen != nil {
			ds.deepenWhy = fmt.Sprintf("profile: deepen = %q", p.Deepen.Source)
		}
		if p.Ease != nil {
			ds.easeWhy = fmt.Sprintf("profile: ease = %q", p.Ease.Source)
		}
	}
	return ds
}

// Index returns the index in Levels of the level numbered level, or -1.
func (ds *Depths) Index(level int) int {
	for i, l := range ds.Levels {
		if l.Level == level {
			return i
		}
	}
	return -1
}

// Reassess moves the depth at index at by at most one level after a pass
// whose results env.Pass holds: deeper when Deepen holds, else shallower
// when Ease does. It returns the new index and why it moved ("" when it
// did not); a condition that fails to evaluate counts as false and is
// returned as the error.
func (ds *Depths) Reassess(env *cond.ProfileEnv, at int) (int, string, error) {
	env.Level = ds.Levels[at].Level
	if ok, err := holds(ds.Deepen, env); ok || err != nil {
		if ok && at+1 < len(ds.Levels) {
			return at + 1, ds.deepenWhy, nil
		}
		return at, "", err
	}
	ok, err := holds(ds.Ease, env)
	if ok && at > 0 {
		return at - 1, ds.easeWhy, nil
	}
	return at, "", err
}

// holds evaluates c against env; an absent condition does not hold.
func holds(c *cond.Condition, env *cond.ProfileEnv) (bool, error) {
	if c == nil {
		return false, nil
	}
	return c.Eval(env)
}
