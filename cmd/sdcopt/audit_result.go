package main

import "github.com/sdcopt/sdcopt/audit"

// The JSON documents of `sdcopt audit` and `sdcopt audit replay`: the
// decisions with what every command's JSON carries (method, seconds and
// the inputs that define the result).

// auditResult is the operator's JSON of one decision: the decision's own
// fields at the top level, beside the command's.
type auditResult struct {
	Method  string  `json:"method"`  // "audit"
	Seconds float64 `json:"seconds"` // the decision, the file reading excluded
	Table   string  `json:"table"`
	History string  `json:"history"`
	Request string  `json:"request"` // as given; margin is the parsed request
	Seed    uint64  `json:"seed"`
	Policy  string  `json:"policy"` // the --policy parameters as given ("" = the defaults)
	*audit.Decision
}

// publicAuditResult is the answer a requester may see (--public): no
// file names, no evidence.
type publicAuditResult struct {
	Method  string  `json:"method"`
	Seconds float64 `json:"seconds"`
	audit.PublicDecision
}

// auditReplayResult is the JSON of `sdcopt audit replay`.
type auditReplayResult struct {
	Method        string      `json:"method"` // "audit replay"
	Seconds       float64     `json:"seconds"`
	Table         string      `json:"table"`
	History       string      `json:"history,omitempty"`
	Requests      string      `json:"requests"`
	Mode          string      `json:"mode"`
	Seed          uint64      `json:"seed"` // request i is decided with seed + i - 1
	Policy        string      `json:"policy"`
	PolicyVersion string      `json:"policy_version"`
	Decisions     []replayRow `json:"decisions"`
}

func newAuditResult(s *auditSettings, d *audit.Decision, secs float64) any {
	if s.public {
		return publicAuditResult{Method: "audit", Seconds: secs, PublicDecision: d.Public()}
	}
	return auditResult{Method: "audit", Seconds: secs, Table: s.table, History: s.history, Request: s.request,
		Seed: s.seed, Policy: s.policy, Decision: d}
}
