//go:build cgo && lpsolve

package lpsolve

import (
	"github.com/sdcopt/sdcopt/solvers"
)

const engineName = "lpsolve"

var caps = solvers.Capabilities{LP: true, Integer: true, Duals: true, Incremental: true, WarmStart: true, TimeLimit: true}

func init() {
	solvers.Register(solvers.Engine{
		Name:        engineName,
		Description: "lp_solve 5.5 (cgo, Debian liblpsolve55-dev)",
		Probe:       func() (string, error) { return cVersion(), nil },
		Caps:        caps,
		New:         func() (solvers.Solver, error) { return New(), nil },
		LPRank:      3,
		MIPRank:     3,
	})
}

// Solver is the lp_solve engine. It holds no engine state between calls:
// every Solve builds a fresh lp_solve model and frees it.
type Solver struct{}

// New returns an lp_solve solver.
func New() *Solver { return &Solver{} }

func (*Solver) Name() string                       { return engineName }
func (*Solver) Version() string                    { return cVersion() }
func (*Solver) Capabilities() solvers.Capabilities { return caps }

// Solve loads p into a fresh lp_solve model, solves it and frees the model.
func (s *Solver) Solve(p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	if err := prm.Validate(); err != nil {
		return nil, solvers.WithEngine(engineName, err)
	}
	if err := p.Validate(); err != nil {
		return nil, solvers.WithEngine(engineName, err)
	}
	o, err := parseOptions(prm, false)
	if err != nil {
		return nil, err
	}
	md, err := newModel(p, o)
	if err != nil {
		return nil, err
	}
	defer md.free()
	md.prob = p
	return md.solve()
}

// NewSession loads p into a persistent lp_solve model.
func (s *Solver) NewSession(p *solvers.Problem, prm *solvers.Params) (solvers.Session, error) {
	if err := prm.Validate(); err != nil {
		return nil, solvers.WithEngine(engineName, err)
	}
	if err := p.Validate(); err != nil {
		return nil, solvers.WithEngine(engineName, err)
	}
	o, err := parseOptions(prm, true)
	if err != nil {
		return nil, err
	}
	md, err := newModel(p, o)
	if err != nil {
		return nil, err
	}
	return newSession(md), nil
}
