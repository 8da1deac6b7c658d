package youtrack

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

var _ sdk.Grounder = (*Source)(nil)

// Ground looks up a question's projects (by short name or name, answering
// the short name the query language uses) and states (State values of any
// bundle, or a group word such as "unresolved", answering the states in
// the group), case-insensitively. Other kinds are not grounded.
func (s *Source) Ground(ctx context.Context, req sdk.GroundRequest) (resp sdk.GroundResponse, err error) {
	s.mu.RLock()
	client, cfg := s.client, s.cfg
	s.mu.RUnlock()
	red := redact.New(cfg.Token)
	defer func() {
		if r := recover(); r != nil {
			err = &sdk.Error{Kind: sdk.KindUnknown, Message: red.String(fmt.Sprintf("youtrack: internal error: %v", r))}
		}
	}()
	if client == nil {
		return sdk.GroundResponse{}, sdk.Errorf(sdk.KindBadConfig, "youtrack: not configured (call Configure with base_url and token first)")
	}
	v, err := loadVocabulary(ctx, client, req)
	if err != nil {
		return sdk.GroundResponse{}, red.Error(err)
	}
	name := strings.Join(cfg.Projects, ", ")
	if name == "" {
		name = client.web.Host
	}
	resp = sdk.GroundResponse{Terms: make([]sdk.GroundedTerm, len(req.Terms)), Coverage: sdk.Coverage{Name: name}}
	for i, t := range req.Terms {
		resp.Terms[i] = v.ground(t)
	}
	return resp, nil
}

// vocabulary is what the instance holds of the kinds the request asks about.
type vocabulary struct {
	projects        []AdminProject
	states          []StateValue // distinct by name, in bundle order
	projectsPartial bool
	statesPartial   bool
}

// loadVocabulary reads only the lists the request's terms need.
func loadVocabulary(ctx context.Context, c *Client, req sdk.GroundRequest) (vocabulary, error) {
	var v vocabulary
	has := func(kind string) bool {
		return slices.ContainsFunc(req.Terms, func(t sdk.Term) bool { return t.Kind == kind })
	}
	var err error
	if has(sdk.TermProject) {
		if v.projects, v.projectsPartial, err = c.Projects(ctx); err != nil {
			return v, err
		}
	}
	if has(sdk.TermState) {
		bundles, partial, err := c.StateBundles(ctx)
		if err != nil {
			return v, err
		}
		v.statesPartial = partial
		for _, b := range bundles {
			for _, sv := range b.Values {
				if !slices.ContainsFunc(v.states, func(x StateValue) bool { return x.Name == sv.Name }) {
					v.states = append(v.states, sv)
				}
			}
		}
	}
	return v, nil
}

// stateGroups are the status words the query maps to #Unresolved (false)
// and #Resolved (true), as statusTerm does.
var stateGroups = map[string]bool{"open": false, "opened": false, "unresolved": false, "resolved": true, "closed": true, "done": true}

func (v vocabulary) ground(t sdk.Term) sdk.GroundedTerm {
	g := sdk.GroundedTerm{Kind: t.Kind, Value: t.Value}
	want := strings.TrimSpace(t.Value)
	var forms []string
	partial := false
	switch t.Kind {
	case sdk.TermProject:
		partial = v.projectsPartial
		for _, p := range v.projects {
			if strings.EqualFold(p.ShortName, want) || strings.EqualFold(p.Name, want) {
				forms = append(forms, p.ShortName)
				if p.Archived {
					g.Note = "an archived project"
				}
			}
		}
	case sdk.TermState:
		partial = v.statesPartial
		for _, sv := range v.states {
			if strings.EqualFold(sv.Name, want) {
				forms = append(forms, sv.Name)
			}
		}
		if resolved, ok := stateGroups[strings.ToLower(want)]; ok && len(forms) == 0 {
			for _, sv := range v.states {
				if sv.IsResolved == resolved {
					forms = append(forms, sv.Name)
				}
			}
			g.Note = map[bool]string{false: "the unresolved states (#Unresolved)", true: "the resolved states (#Resolved)"}[resolved]
		}
	default:
		g.Note = "the youtrack source grounds project and state terms only"
		return g
	}
	if len(forms) == 0 {
		g.Note = "no YouTrack " + t.Kind + " of this name that the token can see"
		if partial {
			g.Note += fmt.Sprintf(" (only the first %d were read)", maxAdminItems)
		}
		return g
	}
	if len(forms) > sdk.MaxCanonical {
		forms = forms[:sdk.MaxCanonical]
	}
	g.Known, g.Canonical = true, forms
	return g
}
