package ip

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// MaxPricingNonzeros caps the number of matrix entries of the pricing model
// (14): PricingProblem and SolveExactPricing refuse larger models with an
// error wrapping ErrPricingTooLarge instead of exhausting memory. The model
// has n(n−1)(2n−1)/2 entries for η ≥ 3 (n(n−1)/2 for η = 2), so the cap
// admits η ≥ 3 up to n = 200 (7.94 million entries, about 130 MB in the
// Problem alone, several times that inside an engine).
const MaxPricingNonzeros = 8_000_000

// ErrPricingTooLarge is wrapped by PricingProblem and SolveExactPricing
// when the model would exceed MaxPricingNonzeros.
var ErrPricingTooLarge = errors.New("pricing model too large")

// ErrNotClique is wrapped by DecodePricing when z is not the edge set of a
// clique of size η.
var ErrNotClique = errors.New("not a clique of the pricing size")

// Defaults of the triangle-cut loop (PricingOptions.CutRounds and
// MaxCutsPerRound when zero).
const (
	DefaultCutRounds = 5
	// DefaultMaxCutsPerRound is the cap per round for up to 100 records;
	// for more, the cap is 2n (see PricingOptions.MaxCutsPerRound).
	DefaultMaxCutsPerRound = 200
)

// cutTol is the violation a triangle inequality must exceed to be added.
const cutTol = 1e-6

// PricingOptions configure SolveExactPricing. A nil *PricingOptions means
// the zero value: the default MIP engine, default parameters, no cuts.
type PricingOptions struct {
	// Solver is the MIP engine's registry name ("" or "auto": the
	// preferred engine for integer problems).
	Solver string
	// Params are the engine parameters of the MIP solve (nil: defaults,
	// with the package solvers' tight gaps). A TimeLimit bounds the whole
	// call: the cut loop stops when it is used up and the MIP gets what
	// remains. Raw options go to the MIP engine only (an engine-specific
	// objective cutoff such as CBC's "cutoff" makes the engine report no
	// solution when no group beats it, and Found is then false).
	Params *solvers.Params
	// TriangleCuts runs a cutting-plane loop on the LP relaxation of (14)
	// with the triangle inequalities z_ir + z_rj − z_ij ≤ 1 before the MIP
	// solve, and passes the cuts found to the MIP as rows.
	TriangleCuts bool
	// CutRounds is the number of separation rounds (0: DefaultCutRounds).
	CutRounds int
	// MaxCutsPerRound caps the inequalities added per round, the most
	// violated first (0: DefaultMaxCutsPerRound, or 2n when that is larger).
	MaxCutsPerRound int
	// LPSolver is the engine of the LP relaxations in the cut loop ("" or
	// "auto": the preferred LP engine). It gets Params without Raw.
	LPSolver string
}

// PricingResult is the outcome of SolveExactPricing.
type PricingResult struct {
	// Column is the best group found (Members ascending) with its reduced
	// cost recomputed from the distances and duals, not taken from the
	// engine's objective. It is the minimizer when Optimal, whatever its
	// sign: the caller decides whether the column prices out.
	Column model.Column
	// Found reports that the engine returned a solution (a clique of size η).
	Found bool
	// Optimal reports that the engine proved optimality (within the gaps
	// of Params).
	Optimal bool
	// BestBound is a lower bound on the minimum reduced cost of a group of
	// size η: the MIP engine's dual bound, or, when the engine gives none,
	// the LP bound of the cut loop; NaN if neither exists.
	BestBound float64
	// LPBound is the optimal value of the LP relaxation of (14) with the
	// triangle cuts of the loop (NaN when the loop did not run or its LP
	// did not solve to optimality).
	LPBound float64
	// Cuts is the number of triangle inequalities added.
	Cuts int
	// Nodes are the MIP engine's branch-and-bound nodes.
	Nodes int64
	// Seconds is the wall-clock time of the whole call.
	Seconds float64
	// Solver is the MIP engine's registry name.
	Solver string
	// Status is the MIP engine's status.
	Status solvers.Status
}

// pricingNonzeros is the number of matrix entries of model (14) for n
// records and size eta, in float64 so that no n overflows.
func pricingNonzeros(n, eta int) float64 {
	m := float64(n) * float64(n-1) / 2
	if eta == 2 {
		return m
	}
	return m * float64(2*n-1)
}

// checkPricing validates p for the model (14).
func checkPricing(p *model.PricingInstance) error {
	if p == nil {
		return fmt.Errorf("ip: nil pricing instance")
	}
	if err := p.Check(); err != nil {
		return fmt.Errorf("ip: %w", err)
	}
	n := p.Dist.N
	if p.Eta < 2 {
		return fmt.Errorf("ip: pricing model (14) needs a group size of at least 2, got %d", p.Eta)
	}
	for v, l := range p.Lambda {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return fmt.Errorf("ip: dual of record %d is %v", v, l)
		}
	}
	for k, c := range p.Dist.D {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("ip: distance between records %d and %d is %v", k/n, k%n, c)
		}
	}
	return CheckPricingSize(n, p.Eta)
}

// CheckPricingSize returns an error wrapping ErrPricingTooLarge when the
// pricing model (14) over n records for group size eta would exceed
// MaxPricingNonzeros; it depends on the sizes only, so callers can check
// it before any work (colgen does, for every size it may price exactly).
func CheckPricingSize(n, eta int) error {
	if nz := pricingNonzeros(n, eta); nz > MaxPricingNonzeros {
		return fmt.Errorf("ip: %w: %d records and size %d need %.0f nonzeros (limit %d)", ErrPricingTooLarge, n, eta, nz, MaxPricingNonzeros)
	}
	return nil
}

// edgeIndex is the column of edge ij (i < j) among n records: edges are
// ordered (0,1), (0,2), ..., (0,n−1), (1,2), ...
func edgeIndex(n, i, j int) int { return i*(2*n-i-1)/2 + j - i - 1 }

// PricingProblem writes the pricing subproblem of fixed size η (Gentile,
// Spagnolo-Arrizabalaga & Castro, Section 4.2, model (14)) on the complete
// graph over the n records:
//
//	min  Σ_{e=ij} (c_ij/η − (λ_i+λ_j)/(η−1)) z_e
//	     Σ_e z_e = η(η−1)/2                                  (row "size")
//	     Σ_{e∈δ(i)∖{ij}} z_e − (η−2) z_ij ≥ 0   for i ≠ j     (rows "n2n_i_j")
//	     z_e ∈ {0, 1}
//
// Column z_ij (i < j) is named "z_i_j" and is column
// i(2n−i−1)/2 + j−i−1 (the edges in lexicographic order). The node-to-node
// rows, one per ordered pair (i, j) at row 1 + i(n−1) + j − [j > i], are
// left out for η = 2, where they hold trivially. By Proposition 4.2 the
// binary feasible points are exactly the cliques of size η, and the
// objective of a clique C equals the reduced cost
// Σ_{i<j∈C} c_ij/η − Σ_{v∈C} λ_v of the group.
//
// Errors: a nil or malformed instance (model.PricingInstance.Check),
// η < 2, non-finite duals or distances, and models beyond
// MaxPricingNonzeros (ErrPricingTooLarge).
func PricingProblem(p *model.PricingInstance) (*solvers.Problem, error) {
	if err := checkPricing(p); err != nil {
		return nil, err
	}
	n, eta := p.Dist.N, p.Eta
	ne := n * (n - 1) / 2
	etaF := float64(eta)
	n2n := eta > 2
	nrows := 1
	perCol := 1
	if n2n {
		nrows += n * (n - 1)
		perCol += 2 * (n - 1)
	}
	q := &solvers.Problem{
		Name:     fmt.Sprintf("pricing_n%d_eta%d", n, eta),
		Sense:    solvers.Minimize,
		Obj:      make([]float64, 0, ne),
		ColLower: make([]float64, ne),
		ColUpper: make([]float64, ne),
		ColType:  make([]solvers.VarType, ne),
		ColNames: make([]string, 0, ne),
		RowLower: make([]float64, nrows),
		RowUpper: make([]float64, nrows),
		RowNames: make([]string, nrows),
		ColStart: make([]int, 1, ne+1),
		RowIndex: make([]int, 0, ne*perCol),
		Value:    make([]float64, 0, ne*perCol),
	}
	size := etaF * (etaF - 1) / 2
	q.RowLower[0], q.RowUpper[0], q.RowNames[0] = size, size, "size"
	if n2n {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if j == i {
					continue
				}
				r := n2nRow(n, i, j)
				q.RowLower[r], q.RowUpper[r] = 0, solvers.Inf
				q.RowNames[r] = "n2n_" + strconv.Itoa(i) + "_" + strconv.Itoa(j)
			}
		}
	}
	self := -(etaF - 2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			q.Obj = append(q.Obj, p.Dist.At(i, j)/etaF-(p.Lambda[i]+p.Lambda[j])/(etaF-1))
			q.ColNames = append(q.ColNames, "z_"+strconv.Itoa(i)+"_"+strconv.Itoa(j))
			q.RowIndex = append(q.RowIndex, 0)
			q.Value = append(q.Value, 1)
			if n2n {
				// z_ij is in δ(i) and δ(j): +1 in the rows (i, b) and
				// (j, b) for b outside {i, j}, −(η−2) in (i, j) and (j, i).
				for _, a := range [2]int{i, j} {
					other := i + j - a
					for b := 0; b < n; b++ {
						if b == a {
							continue
						}
						v := 1.0
						if b == other {
							v = self
						}
						q.RowIndex = append(q.RowIndex, n2nRow(n, a, b))
						q.Value = append(q.Value, v)
					}
				}
			}
			q.ColStart = append(q.ColStart, len(q.RowIndex))
		}
	}
	for k := range q.ColUpper {
		q.ColUpper[k] = 1
		q.ColType[k] = solvers.Binary
	}
	return q, nil
}

// n2nRow is the row of the node-to-node inequality of the ordered pair
// (i, j), i ≠ j.
func n2nRow(n, i, j int) int {
	if j > i {
		j--
	}
	return 1 + i*(n-1) + j
}

// DecodePricing returns the members (ascending) of the clique whose edges
// are the z of x, one value per column of PricingProblem(p). Values must
// be within 1e-5 of 0 or 1. Errors: a malformed instance, a wrong length,
// non-binary values, and z that is not exactly the edge set of a clique of
// size η (ErrNotClique).
func DecodePricing(p *model.PricingInstance, x []float64) ([]int, error) {
	if p == nil {
		return nil, fmt.Errorf("ip: nil pricing instance")
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("ip: %w", err)
	}
	if p.Eta < 2 {
		return nil, fmt.Errorf("ip: pricing model (14) needs a group size of at least 2, got %d", p.Eta)
	}
	n, eta := p.Dist.N, p.Eta
	if len(x) != n*(n-1)/2 {
		return nil, fmt.Errorf("ip: %d values for the %d edges of %d records", len(x), n*(n-1)/2, n)
	}
	const tol = 1e-5
	in := make([]bool, n)
	edges := 0
	k := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := x[k]
			k++
			switch {
			case math.Abs(v) <= tol:
			case math.Abs(v-1) <= tol:
				edges++
				in[i], in[j] = true, true
			default:
				return nil, fmt.Errorf("ip: z_%d_%d = %v is not binary", i, j, v)
			}
		}
	}
	var members []int
	for v, ok := range in {
		if ok {
			members = append(members, v)
		}
	}
	// edges ≤ |members|(|members|−1)/2 with equality only for a complete
	// graph on the members, so the two counts identify a clique of size η.
	if len(members) != eta || edges != eta*(eta-1)/2 {
		return nil, fmt.Errorf("ip: %w: %d edges on %d records, want a clique of %d records", ErrNotClique, edges, len(members), eta)
	}
	return members, nil
}

// triCut is the triangle inequality z_ar + z_rb − z_ab ≤ 1 with apex r and
// opposite edge ab (a < b).
type triCut struct {
	r, a, b   int
	violation float64
}

// separateTriangles returns the triangle inequalities violated by more
// than cutTol at the point z (one value per edge), most violated first
// (ties by indices), at most max, skipping those in seen.
func separateTriangles(n int, z []float64, max int, seen map[[3]int]bool) []triCut {
	var cuts []triCut
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			zab := z[edgeIndex(n, a, b)]
			for c := b + 1; c < n; c++ {
				zac, zbc := z[edgeIndex(n, a, c)], z[edgeIndex(n, b, c)]
				if zab+zac+zbc <= 1+cutTol {
					continue
				}
				// At most one of the three can be violated: the sum of
				// any two violations is 2z − 2 ≤ 0.
				var t triCut
				switch {
				case zab+zac-zbc-1 > cutTol:
					t = triCut{a, b, c, zab + zac - zbc - 1}
				case zab+zbc-zac-1 > cutTol:
					t = triCut{b, a, c, zab + zbc - zac - 1}
				case zac+zbc-zab-1 > cutTol:
					t = triCut{c, a, b, zac + zbc - zab - 1}
				default:
					continue
				}
				if seen[[3]int{t.r, t.a, t.b}] {
					continue
				}
				cuts = append(cuts, t)
			}
		}
	}
	slices.SortFunc(cuts, func(x, y triCut) int {
		switch {
		case x.violation > y.violation:
			return -1
		case x.violation < y.violation:
			return 1
		}
		if x.r != y.r {
			return x.r - y.r
		}
		if x.a != y.a {
			return x.a - y.a
		}
		return x.b - y.b
	})
	if len(cuts) > max {
		cuts = cuts[:max]
	}
	return cuts
}

// cutRows returns cuts in the CSR form of Session.AddRows, with names.
func cutRows(n int, cuts []triCut) (lo, up []float64, start, cols []int, vals []float64, names []string) {
	start = []int{0}
	for _, t := range cuts {
		lo = append(lo, -solvers.Inf)
		up = append(up, 1)
		e := [3]int{edgeIndex(n, min(t.a, t.r), max(t.a, t.r)), edgeIndex(n, min(t.b, t.r), max(t.b, t.r)), edgeIndex(n, t.a, t.b)}
		v := [3]float64{1, 1, -1}
		// Columns in increasing order.
		ord := [3]int{0, 1, 2}
		slices.SortFunc(ord[:], func(x, y int) int { return e[x] - e[y] })
		for _, k := range ord {
			cols = append(cols, e[k])
			vals = append(vals, v[k])
		}
		start = append(start, len(cols))
		names = append(names, "tri_"+strconv.Itoa(t.r)+"_"+strconv.Itoa(t.a)+"_"+strconv.Itoa(t.b))
	}
	return lo, up, start, cols, vals, names
}

// appendRows returns q with the CSR rows appended (a new Problem; q is not
// modified).
func appendRows(q *solvers.Problem, lo, up []float64, start, cols []int, vals []float64, names []string) *solvers.Problem {
	out := q.Clone()
	m0 := q.NumRows()
	nc := q.NumCols()
	extra := make([]int, nc+1) // entries per column
	for _, j := range cols {
		extra[j+1]++
	}
	for j := 0; j < nc; j++ {
		extra[j+1] += extra[j]
	}
	out.ColStart = make([]int, nc+1)
	out.RowIndex = make([]int, 0, len(q.RowIndex)+len(cols))
	out.Value = make([]float64, 0, len(q.Value)+len(vals))
	byCol := make([][]int, nc) // (row) per column, in row order
	byVal := make([][]float64, nc)
	for r := 0; r+1 < len(start); r++ {
		for k := start[r]; k < start[r+1]; k++ {
			byCol[cols[k]] = append(byCol[cols[k]], m0+r)
			byVal[cols[k]] = append(byVal[cols[k]], vals[k])
		}
	}
	for j := 0; j < nc; j++ {
		rows, v := q.Column(j)
		out.RowIndex = append(out.RowIndex, rows...)
		out.Value = append(out.Value, v...)
		out.RowIndex = append(out.RowIndex, byCol[j]...)
		out.Value = append(out.Value, byVal[j]...)
		out.ColStart[j+1] = len(out.RowIndex)
	}
	out.RowLower = append(out.RowLower, lo...)
	out.RowUpper = append(out.RowUpper, up...)
	if out.RowNames != nil {
		out.RowNames = append(out.RowNames, names...)
	}
	return out
}

// lpSolve solves the LP relaxation in a session when the engine has one,
// else from scratch on the current rows.
type lpSolve struct {
	s    solvers.Solver
	sess solvers.Session
	prob *solvers.Problem
	prm  *solvers.Params
}

func (l *lpSolve) solve() (*solvers.Result, error) {
	if l.sess != nil {
		return l.sess.Solve()
	}
	return l.s.Solve(l.prob, l.prm)
}

func (l *lpSolve) addRows(lo, up []float64, start, cols []int, vals []float64, names []string) error {
	if l.sess != nil {
		return l.sess.AddRows(lo, up, start, cols, vals)
	}
	l.prob = appendRows(l.prob, lo, up, start, cols, vals, names)
	return nil
}

// triangleLoop runs the cutting-plane loop on the LP relaxation of q and
// returns the cuts found (CSR) and the last LP bound (NaN if none).
func triangleLoop(q *solvers.Problem, n int, opts *PricingOptions, prm *solvers.Params, deadline time.Time) (lo, up []float64, start, cols []int, vals []float64, names []string, bound float64, err error) {
	bound = math.NaN()
	rounds := opts.CutRounds
	if rounds <= 0 {
		rounds = DefaultCutRounds
	}
	perRound := opts.MaxCutsPerRound
	if perRound <= 0 {
		perRound = max(DefaultMaxCutsPerRound, 2*n)
	}
	relax := q.Clone()
	relax.ColType = nil
	s, err := solvers.New(opts.LPSolver, false)
	if err != nil {
		return nil, nil, nil, nil, nil, nil, bound, err
	}
	lpPrm := *prm
	lpPrm.Raw = nil
	l := &lpSolve{s: s, prob: relax, prm: &lpPrm}
	if s.Capabilities().Incremental {
		if l.sess, err = s.NewSession(relax, &lpPrm); err != nil {
			return nil, nil, nil, nil, nil, nil, bound, err
		}
		defer l.sess.Close()
	}
	seen := map[[3]int]bool{}
	start = []int{0}
	for round := 0; ; round++ {
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left <= 0 {
				break
			}
			lpPrm.TimeLimit = left
		}
		r, err := l.solve()
		if err != nil {
			return nil, nil, nil, nil, nil, nil, math.NaN(), err
		}
		if r.Status != solvers.Optimal || !r.HasSolution {
			bound = math.NaN()
			break
		}
		bound = r.Objective
		if round == rounds {
			break
		}
		cuts := separateTriangles(n, r.X, perRound, seen)
		if len(cuts) == 0 {
			break
		}
		for _, t := range cuts {
			seen[[3]int{t.r, t.a, t.b}] = true
		}
		clo, cup, cst, ccols, cvals, cnames := cutRows(n, cuts)
		if err := l.addRows(clo, cup, cst, ccols, cvals, cnames); err != nil {
			return nil, nil, nil, nil, nil, nil, math.NaN(), err
		}
		off := len(cols)
		lo = append(lo, clo...)
		up = append(up, cup...)
		for _, e := range cst[1:] {
			start = append(start, off+e)
		}
		cols = append(cols, ccols...)
		vals = append(vals, cvals...)
		names = append(names, cnames...)
	}
	return lo, up, start, cols, vals, names, bound, nil
}

// SolveExactPricing solves the pricing subproblem (14) of p to optimality
// with a MIP engine (optionally after a triangle-cut loop on its LP
// relaxation) and returns the minimizing group, whatever the sign of its
// reduced cost. A result with Found false (or Optimal false, after a time
// limit) is not an error; engine failures, a malformed instance, an engine
// without integer support and a model beyond MaxPricingNonzeros are.
// Every engine solution is decoded with DecodePricing; one that is not a
// clique of size η is reported as an error.
func SolveExactPricing(p *model.PricingInstance, opts *PricingOptions) (*PricingResult, error) {
	t0 := time.Now()
	q, err := PricingProblem(p)
	if err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &PricingOptions{}
	}
	prm := *opts.Params.OrDefault()
	var deadline time.Time
	if prm.TimeLimit > 0 {
		deadline = t0.Add(prm.TimeLimit)
	}
	s, err := solvers.New(opts.Solver, true)
	if err != nil {
		return nil, err
	}
	if !s.Capabilities().Integer {
		return nil, solvers.Errorf(s.Name(), "pricing", solvers.ErrUnsupported, "engine does not solve integer programs")
	}
	res := &PricingResult{BestBound: math.NaN(), LPBound: math.NaN(), Solver: s.Name()}
	if opts.TriangleCuts && p.Eta >= 3 && p.Dist.N >= 3 {
		lo, up, start, cols, vals, names, bound, err := triangleLoop(q, p.Dist.N, opts, &prm, deadline)
		if err != nil {
			return nil, fmt.Errorf("ip: pricing cut loop: %w", err)
		}
		res.LPBound = bound
		if len(lo) > 0 {
			q = appendRows(q, lo, up, start, cols, vals, names)
			res.Cuts = len(lo)
		}
	}
	if !deadline.IsZero() {
		// The MIP gets what the cut loop left, at least a millisecond
		// (zero would mean no limit).
		prm.TimeLimit = max(time.Until(deadline), time.Millisecond)
	}
	r, err := s.Solve(q, &prm)
	if err != nil {
		return nil, err
	}
	res.Status = r.Status
	res.Nodes = r.Nodes
	res.Optimal = r.Status == solvers.Optimal
	res.BestBound = r.BestBound
	if math.IsNaN(res.BestBound) || math.IsInf(res.BestBound, -1) {
		res.BestBound = res.LPBound
	}
	if r.HasSolution {
		members, err := DecodePricing(p, r.X)
		if err != nil {
			return nil, fmt.Errorf("ip: %s returned a pricing solution that is not a clique: %w", s.Name(), err)
		}
		res.Found = true
		res.Column = model.Column{Members: members, ReducedCost: p.Dist.ReducedCost(p.Lambda, members)}
	} else if res.Optimal {
		// A clique of size η ≤ n always exists: an "optimal" status
		// without a point is an engine fault.
		return nil, solvers.Errorf(s.Name(), "pricing", solvers.ErrEngine, "status %v without a solution", r.Status)
	}
	res.Seconds = time.Since(t0).Seconds()
	return res, nil
}

// ParseEdgeName decodes a column name "z_i_j" of PricingProblem.
func ParseEdgeName(name string) (i, j int, err error) {
	parts := strings.Split(name, "_")
	if len(parts) != 3 || parts[0] != "z" {
		return 0, 0, fmt.Errorf("ip: %q is not a pricing column name", name)
	}
	if i, err = strconv.Atoi(parts[1]); err == nil {
		j, err = strconv.Atoi(parts[2])
	}
	if err != nil || i < 0 || j <= i {
		return 0, 0, fmt.Errorf("ip: %q is not a pricing column name", name)
	}
	return i, j, nil
}
