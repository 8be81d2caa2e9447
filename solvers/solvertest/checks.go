package solvertest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sdcopt/sdcopt/solvers"
)

// Factory returns a fresh instance of the engine under test.
type Factory func() (solvers.Solver, error)

// ErrSkip is returned by a check that does not apply to the engine's
// capabilities.
var ErrSkip = errors.New("not applicable to this engine")

// Check is one conformance check.
type Check struct {
	Name string
	// Short reports that the check is cheap enough for go test -short.
	Short bool
	Run   func(s solvers.Solver) error
}

// Checks returns the conformance suite. Every check builds its own
// problems; none depends on another.
func Checks() []Check {
	return []Check{
		{"lp_known_min", true, checkKnownMin},
		{"lp_known_max", true, checkKnownMax},
		{"lp_equality_ranged", true, checkEqualityRanged},
		{"lp_free_fixed_columns", true, checkFreeFixed},
		{"lp_free_row", true, checkFreeRow},
		{"lp_no_rows", true, checkNoRows},
		{"lp_empty_model", true, checkEmpty},
		{"lp_infeasible", true, checkInfeasibleLP},
		{"lp_unbounded", true, checkUnboundedLP},
		{"lp_no_solution", true, checkNoSolutionLP},
		{"lp_random_kkt", true, checkRandomLPs},
		{"mip_known", true, checkKnownMIP},
		{"mip_binary_knapsack", true, checkBinaryKnapsack},
		{"mip_infeasible", true, checkInfeasibleMIP},
		{"mip_no_solution", true, checkNoSolutionMIP},
		{"mip_random_enumeration", true, checkRandomMIPs},
		{"mip_time_limit", false, checkTimeLimit},
		{"invalid_problem", true, checkInvalid},
		{"invalid_params", true, checkInvalidParams},
		{"unknown_raw_option", true, checkUnknownRaw},
		{"lp_only_rejects_integer", true, checkLPOnly},
		{"session_lp", true, checkSessionLP},
		{"session_mip", true, checkSessionMIP},
		{"session_closed", true, checkSessionClosed},
	}
}

// solve runs s on p and requires a nil error and a result that passes
// CheckResult.
func solve(s solvers.Solver, p *solvers.Problem, prm *solvers.Params) (*solvers.Result, error) {
	r, err := s.Solve(p, prm)
	if err != nil {
		return nil, fmt.Errorf("Solve(%s): unexpected error: %w", p.Name, err)
	}
	if r == nil {
		return nil, fmt.Errorf("Solve(%s): nil result without error", p.Name)
	}
	if r.Solver != s.Name() {
		return nil, fmt.Errorf("Solve(%s): Result.Solver = %q, want %q", p.Name, r.Solver, s.Name())
	}
	if err := CheckResult(p, r); err != nil {
		return nil, fmt.Errorf("Solve(%s): %w", p.Name, err)
	}
	return r, nil
}

// expectOptimal solves p, requires Optimal with objective want (relative
// tolerance ObjTol), and certifies the result (KKT for LPs with duals,
// feasibility otherwise).
func expectOptimal(s solvers.Solver, p *solvers.Problem, want float64) (*solvers.Result, error) {
	r, err := solve(s, p, nil)
	if err != nil {
		return nil, err
	}
	if r.Status != solvers.Optimal {
		return r, fmt.Errorf("%s: status %v, want optimal", p.Name, r.Status)
	}
	if math.Abs(r.Objective-want) > ObjTol*scale(want) {
		return r, fmt.Errorf("%s: objective %.12g, want %.12g", p.Name, r.Objective, want)
	}
	if err := certify(s, p, r); err != nil {
		return r, fmt.Errorf("%s: %w", p.Name, err)
	}
	return r, nil
}

func certify(s solvers.Solver, p *solvers.Problem, r *solvers.Result) error {
	if !p.IsMIP() && s.Capabilities().Duals {
		return CheckKKT(p, r)
	}
	if !p.IsMIP() && r.HasDuals {
		return CheckKKT(p, r)
	}
	if p.IsMIP() {
		if !math.IsNaN(r.BestBound) {
			better := (p.Sense == solvers.Minimize && r.BestBound > r.Objective+ObjTol*scale(r.Objective)) ||
				(p.Sense == solvers.Maximize && r.BestBound < r.Objective-ObjTol*scale(r.Objective))
			if better {
				return fmt.Errorf("best bound %.12g is on the wrong side of the incumbent %.12g", r.BestBound, r.Objective)
			}
		}
	}
	return CheckPrimal(p, r)
}

func needLP(s solvers.Solver) error {
	if !s.Capabilities().LP {
		return ErrSkip
	}
	return nil
}

func needMIP(s solvers.Solver) error {
	if !s.Capabilities().Integer {
		return ErrSkip
	}
	return nil
}

// wyndor is the Wyndor Glass LP (Hillier & Lieberman, Introduction to
// Operations Research, Section 3.1): maximize 3x + 5y subject to x ≤ 4,
// 2y ≤ 12, 3x + 2y ≤ 18, x, y ≥ 0. Optimum (2, 6) with value 36; the shadow
// prices of the three rows are 0, 3/2 and 1 (Section 4.7).
func wyndor(sense solvers.Sense) *solvers.Problem {
	c := 1.0
	if sense == solvers.Minimize {
		c = -1
	}
	p := &solvers.Problem{Name: "wyndor_" + sense.String(), Sense: sense}
	p.AddRow(math.Inf(-1), 4, "plant1")
	p.AddRow(math.Inf(-1), 12, "plant2")
	p.AddRow(math.Inf(-1), 18, "plant3")
	p.AddCol(3*c, 0, math.Inf(1), solvers.Continuous, []int{0, 2}, []float64{1, 3}, "doors")
	p.AddCol(5*c, 0, math.Inf(1), solvers.Continuous, []int{1, 2}, []float64{2, 2}, "windows")
	return p
}

func checkWyndor(s solvers.Solver, sense solvers.Sense) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := wyndor(sense)
	sign := 1.0
	if sense == solvers.Minimize {
		sign = -1 // minimize -3x - 5y: objective -36, duals negated
	}
	r, err := expectOptimal(s, p, 36*sign)
	if err != nil {
		return err
	}
	if math.Abs(r.X[0]-2) > 1e-6 || math.Abs(r.X[1]-6) > 1e-6 {
		return fmt.Errorf("x = %v, want [2 6]", r.X)
	}
	if s.Capabilities().Duals {
		want := []float64{0, 1.5 * sign, 1 * sign}
		for i, w := range want {
			if math.Abs(r.Duals[i]-w) > 1e-6 {
				return fmt.Errorf("duals %v, want %v", r.Duals, want)
			}
		}
	}
	return nil
}

func checkKnownMin(s solvers.Solver) error { return checkWyndor(s, solvers.Minimize) }
func checkKnownMax(s solvers.Solver) error { return checkWyndor(s, solvers.Maximize) }

// checkEqualityRanged: minimize 2x + 3y subject to x + y = 4 and
// 1 ≤ x - y ≤ 2, x, y ≥ 0. On the equality line x ∈ [2.5, 3] and the
// objective is 12 - x, so the optimum is x = 3, y = 1, value 9, with the
// ranged row at its upper bound. Stationarity 2 = y1 + y2, 3 = y1 - y2
// gives duals y1 = 2.5, y2 = -0.5.
func checkEqualityRanged(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "equality_ranged"}
	p.AddRow(4, 4, "eq")
	p.AddRow(1, 2, "range")
	p.AddCol(2, 0, math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(3, 0, math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, -1}, "y")
	r, err := expectOptimal(s, p, 9)
	if err != nil {
		return err
	}
	if s.Capabilities().Duals && (math.Abs(r.Duals[0]-2.5) > 1e-6 || math.Abs(r.Duals[1]+0.5) > 1e-6) {
		return fmt.Errorf("duals %v, want [2.5 -0.5]", r.Duals)
	}
	return nil
}

// checkFreeFixed: x free, y fixed at 3, z ≥ 0, with offset 10: minimize
// x + z + 10 subject to x + y ≥ 1 and x - z ≤ 5. Then x ≥ -2 binds: x = -2,
// z = 0, value 8; the row dual is 1 and y's reduced cost is -1.
func checkFreeFixed(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "free_fixed", Offset: 10}
	p.AddRow(1, math.Inf(1), "")
	p.AddRow(math.Inf(-1), 5, "")
	p.AddCol(1, math.Inf(-1), math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(0, 3, 3, solvers.Continuous, []int{0}, []float64{1}, "y")
	p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{1}, []float64{-1}, "z")
	r, err := expectOptimal(s, p, 8)
	if err != nil {
		return err
	}
	if math.Abs(r.X[0]+2) > 1e-6 || math.Abs(r.X[1]-3) > 1e-6 {
		return fmt.Errorf("x = %v, want [-2 3 0]", r.X)
	}
	if s.Capabilities().Duals && (math.Abs(r.Duals[0]-1) > 1e-6 || math.Abs(r.ReducedCosts[1]+1) > 1e-6) {
		return fmt.Errorf("duals %v, reduced costs %v; want dual 1 on row 0 and reduced cost -1 on y", r.Duals, r.ReducedCosts)
	}
	return nil
}

// checkFreeRow: a row with no finite bound must not constrain anything and
// has dual 0. Maximize -x subject to -∞ ≤ x + y ≤ ∞ (free), x + y ≥ 2,
// x ∈ [1, 5], y ∈ [0, 4]: x = 1 (value -1).
func checkFreeRow(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "free_row", Sense: solvers.Maximize}
	p.AddRow(math.Inf(-1), math.Inf(1), "free")
	p.AddRow(2, math.Inf(1), "")
	p.AddCol(-1, 1, 5, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "x")
	p.AddCol(0, 0, 4, solvers.Continuous, []int{0, 1}, []float64{1, 1}, "y")
	r, err := expectOptimal(s, p, -1)
	if err != nil {
		return err
	}
	if s.Capabilities().Duals && math.Abs(r.Duals[0]) > 1e-9 {
		return fmt.Errorf("free row dual %g, want 0", r.Duals[0])
	}
	return nil
}

// checkNoRows: columns but no rows; the optimum sits at the bounds:
// minimize x - 2y with x ∈ [1, 3], y ∈ [-2, 5] gives 1 - 10 = -9.
func checkNoRows(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "no_rows"}
	p.AddCol(1, 1, 3, solvers.Continuous, nil, nil, "")
	p.AddCol(-2, -2, 5, solvers.Continuous, nil, nil, "")
	_, err := expectOptimal(s, p, -9)
	return err
}

// checkEmpty: no rows and no columns. The optimum is the offset.
func checkEmpty(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "empty", Offset: 2.5}
	r, err := solve(s, p, nil)
	if err != nil {
		return err
	}
	if r.Status != solvers.Optimal || !r.HasSolution || math.Abs(r.Objective-2.5) > 1e-12 || len(r.X) != 0 {
		return fmt.Errorf("empty model: status %v, solution %v, objective %g, len(x) %d; want optimal 2.5 with no columns",
			r.Status, r.HasSolution, r.Objective, len(r.X))
	}
	return nil
}

// expectStatus solves p and requires one of the statuses ok; solve checks
// that the result carries a solution only where its status allows one.
func expectStatus(s solvers.Solver, p *solvers.Problem, ok ...solvers.Status) error {
	r, err := solve(s, p, nil)
	if err != nil {
		return err
	}
	for _, st := range ok {
		if r.Status == st {
			return nil
		}
	}
	return fmt.Errorf("%s: status %v, want one of %v", p.Name, r.Status, ok)
}

// checkInfeasibleLP: x + y ≥ 3 and x + y ≤ 2 cannot both hold.
func checkInfeasibleLP(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "infeasible_lp"}
	p.AddRow(3, math.Inf(1), "")
	p.AddRow(math.Inf(-1), 2, "")
	p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, 1}, "")
	p.AddCol(1, 0, math.Inf(1), solvers.Continuous, []int{0, 1}, []float64{1, 1}, "")
	return expectStatus(s, p, solvers.Infeasible, solvers.InfeasibleOrUnbounded)
}

// checkUnboundedLP: minimize -x subject to x - y ≤ 1, x, y ≥ 0: the ray
// (1, 1) decreases the objective without bound.
func checkUnboundedLP(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "unbounded_lp"}
	p.AddRow(math.Inf(-1), 1, "")
	p.AddCol(-1, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{1}, "")
	p.AddCol(0, 0, math.Inf(1), solvers.Continuous, []int{0}, []float64{-1}, "")
	return expectStatus(s, p, solvers.Unbounded, solvers.InfeasibleOrUnbounded)
}

// RandomLPCount is how many seeded random LPs lp_random_kkt certifies.
const RandomLPCount = 200

func checkRandomLPs(s solvers.Solver) error {
	if err := needLP(s); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < RandomLPCount; k++ {
		p := RandomLP(rng, 2+rng.IntN(12), 2+rng.IntN(15))
		r, err := solve(s, p, nil)
		if err != nil {
			return fmt.Errorf("random LP %d: %w", k, err)
		}
		if r.Status != solvers.Optimal {
			return fmt.Errorf("random LP %d (feasible and bounded by construction): status %v", k, r.Status)
		}
		if err := certify(s, p, r); err != nil {
			return fmt.Errorf("random LP %d: %w", k, err)
		}
	}
	return nil
}

// checkKnownMIP: maximize x + y subject to -x + y ≤ 1, 3x + 2y ≤ 12,
// 2x + 3y ≤ 12, x, y ≥ 0 integer. The LP relaxation's optimum is
// (2.4, 2.4) with value 4.8; the integer optimum is 4, e.g. (2, 2), and
// no integer point reaches 5 (x + y = 5 needs 3x + 2y ≤ 12 and 2x + 3y ≤ 12,
// whose sum gives 5(x + y) ≤ 24).
func checkKnownMIP(s solvers.Solver) error {
	if err := needMIP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "known_mip", Sense: solvers.Maximize}
	p.AddRow(math.Inf(-1), 1, "")
	p.AddRow(math.Inf(-1), 12, "")
	p.AddRow(math.Inf(-1), 12, "")
	p.AddCol(1, 0, math.Inf(1), solvers.Integer, []int{0, 1, 2}, []float64{-1, 3, 2}, "x")
	p.AddCol(1, 0, math.Inf(1), solvers.Integer, []int{0, 1, 2}, []float64{1, 2, 3}, "y")
	r, err := expectOptimal(s, p, 4)
	if err != nil {
		return err
	}
	if !math.IsNaN(r.BestBound) && math.Abs(r.BestBound-4) > 1e-4 {
		return fmt.Errorf("best bound %g at optimality, want 4", r.BestBound)
	}
	return nil
}

// checkBinaryKnapsack: maximize 5a + 4b + 3c subject to 2a + 3b + c ≤ 5,
// 4a + b + 2c ≤ 11, 3a + 4b + 2c ≤ 8 with binary a, b, c (declared with
// bounds [0, 10] to check that Binary clips them). Enumerating the 8
// points: (1,1,0) gives 9, (1,1,1) violates the first row; optimum 9.
func checkBinaryKnapsack(s solvers.Solver) error {
	if err := needMIP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "binary_knapsack", Sense: solvers.Maximize}
	p.AddRow(math.Inf(-1), 5, "")
	p.AddRow(math.Inf(-1), 11, "")
	p.AddRow(math.Inf(-1), 8, "")
	p.AddCol(5, 0, 10, solvers.Binary, []int{0, 1, 2}, []float64{2, 4, 3}, "a")
	p.AddCol(4, 0, 10, solvers.Binary, []int{0, 1, 2}, []float64{3, 1, 4}, "b")
	p.AddCol(3, 0, 10, solvers.Binary, []int{0, 1, 2}, []float64{1, 2, 2}, "c")
	_, err := expectOptimal(s, p, 9)
	return err
}

// checkInfeasibleMIP: 2x = 1 has the LP solution x = 0.5 but no integer one.
func checkInfeasibleMIP(s solvers.Solver) error {
	if err := needMIP(s); err != nil {
		return err
	}
	p := &solvers.Problem{Name: "infeasible_mip"}
	p.AddRow(1, 1, "")
	p.AddCol(1, 0, 5, solvers.Integer, []int{0}, []float64{2}, "")
	return expectStatus(s, p, solvers.Infeasible, solvers.InfeasibleOrUnbounded)
}

// RandomMIPCount is how many seeded random integer programs
// mip_random_enumeration checks against brute force.
const RandomMIPCount = 100

func checkRandomMIPs(s solvers.Solver) error {
	if err := needMIP(s); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < RandomMIPCount; k++ {
		p := RandomIntegerProgram(rng, 1+rng.IntN(4), 2+rng.IntN(5))
		want, _, ok := Enumerate(p)
		if !ok {
			return fmt.Errorf("random MIP %d: generator produced an infeasible problem", k)
		}
		if _, err := expectOptimal(s, p, want); err != nil {
			return fmt.Errorf("random MIP %d: %w", k, err)
		}
	}
	return nil
}

// checkTimeLimit: a market split instance (m = 6, n = 50) is out of reach
// of branch and bound in a second, while its slack form has an incumbent at
// once. A 1 s limit must stop the engine with Status TimeLimit and a
// feasible incumbent (or, improbably, with a proven optimum).
func checkTimeLimit(s solvers.Solver) error {
	if err := needMIP(s); err != nil {
		return err
	}
	if !s.Capabilities().TimeLimit {
		return ErrSkip
	}
	p := MarketSplit(rand.New(rand.NewPCG(5, 6)), 6)
	limit := time.Second
	start := time.Now()
	r, err := solve(s, p, &solvers.Params{TimeLimit: limit, MIPRelGap: solvers.DefaultMIPRelGap, MIPAbsGap: solvers.DefaultMIPAbsGap})
	if err != nil {
		return err
	}
	// The limit must have been honoured; the factor leaves room for a
	// loaded machine and engines that check the clock coarsely.
	if el := time.Since(start); el > 30*limit {
		return fmt.Errorf("time limit %v not honoured: took %v", limit, el)
	}
	switch r.Status {
	case solvers.TimeLimit:
		if !r.HasSolution {
			return fmt.Errorf("time limit reached without the trivial incumbent")
		}
		return certify(s, p, r)
	case solvers.Optimal:
		return certify(s, p, r)
	}
	return fmt.Errorf("status %v, want time_limit", r.Status)
}

// checkInvalid: a NaN objective coefficient is a data error, not a panic.
func checkInvalid(s solvers.Solver) error {
	p := &solvers.Problem{Name: "invalid"}
	p.AddRow(0, 1, "")
	p.AddCol(math.NaN(), 0, 1, solvers.Continuous, []int{0}, []float64{1}, "")
	_, err := s.Solve(p, nil)
	if !errors.Is(err, solvers.ErrInvalidProblem) {
		return fmt.Errorf("NaN objective: err = %v, want ErrInvalidProblem", err)
	}
	var se *solvers.Error
	if !errors.As(err, &se) || se.Engine != s.Name() {
		return fmt.Errorf("NaN objective: error %v does not name engine %q", err, s.Name())
	}
	return nil
}

// checkInvalidParams: parameters out of range make Solve and NewSession
// fail with ErrInvalidParams, naming the engine, before any solving.
func checkInvalidParams(s solvers.Solver) error {
	bad := []*solvers.Params{
		{MIPRelGap: math.NaN()},
		{MIPRelGap: 2},
		{MIPAbsGap: math.Inf(1)},
		{TimeLimit: -time.Second},
		{Threads: -1},
	}
	check := func(what string, err error) error {
		if !errors.Is(err, solvers.ErrInvalidParams) {
			return fmt.Errorf("%s: err = %v, want ErrInvalidParams", what, err)
		}
		var se *solvers.Error
		if !errors.As(err, &se) || se.Engine != s.Name() {
			return fmt.Errorf("%s: error %v does not name engine %q", what, err, s.Name())
		}
		return nil
	}
	p := wyndor(solvers.Maximize)
	for _, prm := range bad {
		_, err := s.Solve(p, prm)
		if err := check(fmt.Sprintf("Solve with %+v", *prm), err); err != nil {
			return err
		}
		if s.Capabilities().Incremental {
			ses, err := s.NewSession(p, prm)
			if err == nil {
				ses.Close()
			}
			if err := check(fmt.Sprintf("NewSession with %+v", *prm), err); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkUnknownRaw(s solvers.Solver) error {
	p := wyndor(solvers.Maximize)
	_, err := s.Solve(p, &solvers.Params{Raw: map[string]string{"no_such_option_xyz": "1"}})
	if !errors.Is(err, solvers.ErrUnsupported) {
		return fmt.Errorf("unknown raw option: err = %v, want ErrUnsupported", err)
	}
	return nil
}

func checkLPOnly(s solvers.Solver) error {
	if s.Capabilities().Integer {
		return ErrSkip
	}
	p := &solvers.Problem{Name: "int_on_lp_engine"}
	p.AddCol(1, 0, 1, solvers.Integer, nil, nil, "")
	_, err := s.Solve(p, nil)
	if !errors.Is(err, solvers.ErrUnsupported) {
		return fmt.Errorf("integer column on an LP-only engine: err = %v, want ErrUnsupported", err)
	}
	return nil
}
