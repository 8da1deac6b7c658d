// Package engine plans and executes: a compiled ruleset and a request become
// a Plan (hypotheses, dependency map, retrieval plans and queries), and the
// executor runs a plan through Sources and Agents in a bounded multi-pass loop.
package engine
