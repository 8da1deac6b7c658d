package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/plugins/file"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
)

// askInProcess serves sources and agents from in-process plugin values.
type askInProcess struct {
	sources map[string]sdk.Source
	agents  map[string]sdk.Agent
}

func (p *askInProcess) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	s, ok := p.sources[source]
	if !ok {
		return fmt.Errorf("no source %q", source)
	}
	return s.Fetch(ctx, req, emit)
}

func (p *askInProcess) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	a, ok := p.agents[agent]
	if !ok {
		return sdk.InvokeResponse{}, fmt.Errorf("no agent %q", agent)
	}
	return a.Invoke(ctx, req)
}

// BenchmarkAskTemplateInProcess is a full ask (plan, execute, render) of a
// question the fixtures answer in full, with the default rules, the template agent for every
// role and the issue fixtures as every source, all in-process.
func BenchmarkAskTemplateInProcess(b *testing.B) {
	ctx := context.Background()
	rs, diags := rules.LoadFS(examples.DefaultRules())
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	fixtures, _ := json.Marshal(map[string]string{"path": filepath.Join("..", "..", "examples", "data", "issues.jsonl")})
	p := &askInProcess{sources: map[string]sdk.Source{}, agents: map[string]sdk.Agent{}}
	for _, s := range rs.Sources {
		src := file.New()
		if _, err := src.Configure(ctx, fixtures); err != nil {
			b.Fatal(err)
		}
		p.sources[s.Name] = src
	}
	for _, a := range rs.Agents {
		p.agents[a.Name] = template.New()
	}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	ex := runner.New(p, p, runner.Options{Clock: func() time.Time { return now }})
	planner := engine.NewPlanner(rs)
	b.ReportAllocs()
	for b.Loop() {
		plan, err := planner.Plan(ctx, engine.Request{Query: "how many open issues are there?"})
		if err != nil {
			b.Fatal(err)
		}
		res, err := ex.Run(ctx, plan)
		if err != nil || res.Status != runner.ResultSuccess {
			b.Fatal(err, res.Status, res.Error)
		}
		if err := report.Render(io.Discard, "text", res, report.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
