package ip

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// The exact GCP-optimal k-regular generalization graph (freeform
// k-anonymity, Doka et al.) as a mixed-integer program. Only small tables
// are realistic: the model has n(n−1) binaries.
//
// Variables and constraints, for records i (originals S_i) and j
// (published T_j), attributes a:
//
//   - x_ij ∈ {0,1} for i ≠ j: S_i is matched to T_j; x_jj = 1 is a
//     constant (the identity round), so the degree rows are
//     Σ_{j≠i} x_ij = k−1 for every original i and Σ_{i≠j} x_ij = k−1 for
//     every published j.
//   - Numeric a with range R_a > 0: box bounds lo_ja ∈ [Min_a, v_ja] and
//     hi_ja ∈ [v_ja, Max_a] (T_j's own value is always inside), and for
//     every i with v_ia < v_ja the big-M row lo_ja + (v_ja − v_ia)·x_ij ≤
//     v_ja, for every i with v_ia > v_ja the row hi_ja − (v_ia − v_ja)·x_ij
//     ≥ v_ja. The big-M is the tightest possible, v_ja − v_ia instead of
//     R_a: with x_ij = 0 the row says lo_ja ≤ v_ja, which the bound already
//     says; with x_ij = 1 it says lo_ja ≤ v_ia. Records with v_ia on the
//     own side need no row. NCP_ja = (hi_ja − lo_ja)/R_a; minimization
//     pushes lo_ja up and hi_ja down onto the matched minimum and maximum,
//     so at an optimum the term is the exact NCP. Constant attributes
//     (R_a = 0) contribute nothing and get no variables. Tables of at
//     most KAnonStepMaxN records use the step form instead (see
//     addNumericSteps: the hierarchy construction below applied to the
//     sorted distinct values), whose LP relaxation is stronger; on 9..12
//     random records it cut the HiGHS time by half or more.
//   - Categorical a without hierarchy, cardinality C_a: the box of T_j
//     always holds c_0 = v_ja; it holds m other values, and its NCP is 0
//     when m = 0 and (m+1)/C_a otherwise (a set of one value is not
//     generalized). For every other value c of a record i ≠ j, y_jac ≥
//     x_ij for each such i (c is in the box if one of its records is
//     matched), and g_ja ≥ y_jac ("the box is generalized"). NCP_ja =
//     (Σ_c y_jac + g_ja)/C_a: with m = 0 every y and g can be 0 and the
//     term is 0; with m ≥ 1 exactly m of the y are forced to 1, the others
//     can be 0, and g is forced to 1, giving (m+1)/C_a. All coefficients
//     are positive, so the minimum takes every y and g at its forced lower
//     bound max over its x: the linearization is exact, and y and g may
//     be continuous in [0, 1] (for binary x their lower bounds are 0 or 1).
//   - Categorical a with a hierarchy: let p_0 = v_ja (a leaf), p_1, …,
//     p_r = root be the path up, and ν_t the NCP of node p_t
//     (leaves(p_t)/C_a, 0 for one leaf; ν_0 = 0, nondecreasing in t). The
//     box of T_j is p_t for the least t whose subtree holds every matched
//     value. With w_jat ≥ x_ij for every i whose value is outside the
//     subtree of p_{t−1} ("the box is at p_t or above"), NCP_ja =
//     Σ_{t≥1} (ν_t − ν_{t−1})·w_jat telescopes to ν of the box: the sets
//     of forcing records shrink as t grows, so the forced w are 1 exactly
//     for t ≤ the box's level. Steps with ν_t = ν_{t−1} get no variable.
//     As above, w is continuous in [0, 1] and exact at the minimum.
//
// The objective is Σ_j Σ_a NCP_ja/(n·d) = GCP.
//
// A numeric attribute whose values exceed maxMIPValue in magnitude (or
// whose range Max − Min overflows float64) is modelled on its values
// normalized to [0, 1], (v − Min)/R_a (computed without overflow,
// model.QIAttr.Width): the solvers treat such magnitudes as infinite,
// and the NCPs, hence the objective, are the same.

// maxMIPValue is the largest magnitude of a numeric quasi-identifier that
// the MIP takes as it is; larger ones are normalized (normalizeHuge).
const maxMIPValue = 1e15

// normalizeHuge returns t, or a copy of t in which every numeric
// attribute with a value beyond ±maxMIPValue (a range that overflows
// included) holds its values normalized to [0, 1] (Min 0, Max 1): the
// NCPs are unchanged up to rounding.
func normalizeHuge(t *model.QITable) *model.QITable {
	d := t.D()
	var c *model.QITable
	for a := range t.Attrs {
		at := &t.Attrs[a]
		if at.Kind != model.Numeric || !(at.Max > at.Min) || math.Max(math.Abs(at.Min), math.Abs(at.Max)) <= maxMIPValue {
			continue
		}
		if c == nil {
			c = &model.QITable{Attrs: slices.Clone(t.Attrs), N: t.N, X: slices.Clone(t.X)}
		}
		for i := range t.N {
			c.X[i*d+a] = at.Width(at.Min, t.X[i*d+a])
		}
		c.Attrs[a].Min, c.Attrs[a].Max = 0, 1
	}
	if c == nil {
		return t
	}
	return c
}

// KAnonStepMaxN is the largest table for which KAnonMIPProblem models the
// numeric attributes in step form (up to about n³ entries per attribute,
// with a stronger LP relaxation) instead of big-M box bounds (about n²).
const KAnonStepMaxN = 40

// MaxKAnonMIPNonzeros caps the matrix entries of the k-anonymity MIP;
// SolveKAnonMIP refuses larger models with an error wrapping
// ErrKAnonMIPTooLarge. The model has at most about n²·(2 + 2d) entries.
const MaxKAnonMIPNonzeros = 4_000_000

// ErrKAnonMIPTooLarge is wrapped when the model would exceed
// MaxKAnonMIPNonzeros.
var ErrKAnonMIPTooLarge = errors.New("k-anonymity MIP too large")

// ErrNoSolution is wrapped when the engine stopped without a feasible
// point: at a limit (time, nodes) before finding one, or proving the model
// infeasible (which a k-anonymity MIP with 1 <= k <= n never is).
var ErrNoSolution = errors.New("ip: no solution found")

// KAnonMIPResult is the outcome of SolveKAnonMIP.
type KAnonMIPResult struct {
	// Graph is the best k-regular graph found (identity round included).
	Graph *model.GenGraph
	// GCP is the graph's GCP recomputed from its boxes
	// (model.QITable.GCP), not the engine's objective.
	GCP float64
	// Bound is the engine's best bound on the optimal GCP (NaN if none).
	Bound float64
	// Optimal reports that the engine proved optimality within its gaps.
	Optimal bool
	// Objective is the engine's objective value of the returned solution
	// (equal to GCP up to the engine's tolerances).
	Objective float64
	// Status is the engine's status.
	Status solvers.Status
	// Seconds is the wall-clock time of the whole call.
	Seconds float64
	// Solver is the registry name of the engine that solved the model.
	Solver string
}

// KAnonMIP is a built model with what decoding its solutions needs.
type KAnonMIP struct {
	Problem *solvers.Problem // the model, ready for any MIP engine
	N, K    int              // records and degree
	// xcol[i*n+j] is the column of x_ij (−1 on the diagonal).
	xcol []int
}

// KAnonMIPProblem builds the model described above for table t and
// degree k. Errors: an invalid table (model.QITable.Check), k < 1, k > n,
// an empty table, and models beyond MaxKAnonMIPNonzeros.
func KAnonMIPProblem(t *model.QITable, k int) (*KAnonMIP, error) {
	return kanonMIPProblem(t, k, t != nil && t.N <= KAnonStepMaxN)
}

// kanonMIPProblem builds the model with the numeric attributes as steps
// (steps) or big-M box bounds.
func kanonMIPProblem(t *model.QITable, k int, steps bool) (*KAnonMIP, error) {
	if t == nil {
		return nil, fmt.Errorf("ip: nil QI table")
	}
	if err := t.Check(); err != nil {
		return nil, fmt.Errorf("ip: %w", err)
	}
	n, d := t.N, t.D()
	switch {
	case n == 0 || d == 0:
		return nil, fmt.Errorf("ip: k-anonymity MIP of an empty table (%d records, %d quasi-identifiers)", n, d)
	case k < 1 || k > n:
		return nil, fmt.Errorf("ip: k-anonymity needs 1 <= k <= n, got k = %d for n = %d", k, n)
	}
	if est := float64(n) * float64(n) * float64(2+2*d); est > MaxKAnonMIPNonzeros {
		return nil, fmt.Errorf("ip: %w: n = %d, d = %d gives about %.3g entries (cap %d)", ErrKAnonMIPTooLarge, n, d, est, MaxKAnonMIPNonzeros)
	}
	t = normalizeHuge(t)
	scale := 1 / float64(n*d)
	b := solvers.NewRowBuilder(solvers.Minimize)
	m := &KAnonMIP{N: n, K: k, xcol: make([]int, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				m.xcol[i*n+j] = -1
				continue
			}
			m.xcol[i*n+j] = b.AddVar(0, 0, 1, solvers.Binary, "x_"+strconv.Itoa(i)+"_"+strconv.Itoa(j))
		}
	}
	deg := float64(k - 1)
	cols := make([]int, 0, n)
	ones := slices.Repeat([]float64{1}, n)
	for i := 0; i < n; i++ {
		cols = cols[:0]
		for j := 0; j < n; j++ {
			if j != i {
				cols = append(cols, m.xcol[i*n+j])
			}
		}
		b.AddConstraint(deg, deg, cols, ones[:len(cols)], "orig_"+strconv.Itoa(i))
	}
	for j := 0; j < n; j++ {
		cols = cols[:0]
		for i := 0; i < n; i++ {
			if i != j {
				cols = append(cols, m.xcol[i*n+j])
			}
		}
		b.AddConstraint(deg, deg, cols, ones[:len(cols)], "pub_"+strconv.Itoa(j))
	}
	for a := range t.Attrs {
		at := &t.Attrs[a]
		as := strconv.Itoa(a)
		switch {
		case at.Kind == model.Numeric:
			rng := at.Max - at.Min
			if !(rng > 0) {
				continue
			}
			c := scale / rng
			if steps {
				addNumericSteps(b, m, t, a, c)
				continue
			}
			for j := 0; j < n; j++ {
				js := strconv.Itoa(j)
				vj := t.X[j*d+a]
				if model.IsMissing(vj) {
					// Any value: T_j's box is the whole range.
					b.AddVar(-c, at.Min, at.Min, solvers.Continuous, "lo_"+js+"_"+as)
					b.AddVar(c, at.Max, at.Max, solvers.Continuous, "hi_"+js+"_"+as)
					continue
				}
				lo := b.AddVar(-c, at.Min, vj, solvers.Continuous, "lo_"+js+"_"+as)
				hi := b.AddVar(c, vj, at.Max, solvers.Continuous, "hi_"+js+"_"+as)
				for i := 0; i < n; i++ {
					vi := t.X[i*d+a]
					missing := model.IsMissing(vi) // any value: both rows, to the ends of the range
					if i != j && (vi < vj || missing) && vj > at.Min {
						vl := vi
						if missing {
							vl = at.Min
						}
						b.AddConstraint(-solvers.Inf, vj, []int{lo, m.xcol[i*n+j]}, []float64{1, vj - vl}, "")
					}
					if i != j && (vi > vj || missing) && vj < at.Max {
						vh := vi
						if missing {
							vh = at.Max
						}
						b.AddConstraint(vj, solvers.Inf, []int{hi, m.xcol[i*n+j]}, []float64{1, -(vh - vj)}, "")
					}
				}
			}
		case at.Hier == nil:
			card := len(at.Categories)
			c := scale / float64(card)
			byVal := make([][]int, card) // records with each value
			for i := 0; i < n; i++ {
				v := int(t.X[i*d+a])
				byVal[v] = append(byVal[v], i)
			}
			for j := 0; j < n; j++ {
				js := strconv.Itoa(j)
				own := int(t.X[j*d+a])
				g := -1
				for v, recs := range byVal {
					if v == own || len(recs) == 0 {
						continue
					}
					if g < 0 {
						g = b.AddVar(c, 0, 1, solvers.Continuous, "g_"+js+"_"+as)
					}
					y := b.AddVar(c, 0, 1, solvers.Continuous, "y_"+js+"_"+as+"_"+strconv.Itoa(v))
					for _, i := range recs {
						b.AddConstraint(0, solvers.Inf, []int{y, m.xcol[i*n+j]}, []float64{1, -1}, "")
					}
					b.AddConstraint(0, solvers.Inf, []int{g, y}, []float64{1, -1}, "")
				}
			}
		default:
			h := at.Hier
			ncp := h.NCP // leaves under the node / the hierarchy's leaves
			for j := 0; j < n; j++ {
				js := strconv.Itoa(j)
				below := int32(t.X[j*d+a]) // p_{t−1}
				for step := 1; h.Parent[below] >= 0; step++ {
					up := h.Parent[below] // p_t
					delta := ncp(up) - ncp(below)
					var outside []int
					for i := 0; i < n; i++ {
						if i != j && h.LCA(below, int32(t.X[i*d+a])) != below {
							outside = append(outside, i)
						}
					}
					if delta > 0 && len(outside) > 0 {
						w := b.AddVar(scale*delta, 0, 1, solvers.Continuous, "w_"+js+"_"+as+"_"+strconv.Itoa(step))
						for _, i := range outside {
							b.AddConstraint(0, solvers.Inf, []int{w, m.xcol[i*n+j]}, []float64{1, -1}, "")
						}
					}
					below = up
				}
			}
		}
	}
	m.Problem = b.Problem()
	m.Problem.Name = fmt.Sprintf("kanon_n%d_k%d", n, k)
	return m, nil
}

// Decode returns the graph of solution x (one value per column of the
// problem) after checking that every x_ij is within 1e-5 of 0 or 1 and
// that the graph is k-regular with the identity round.
func (m *KAnonMIP) Decode(x []float64) (*model.GenGraph, error) {
	if len(x) != m.Problem.NumCols() {
		return nil, fmt.Errorf("ip: %d values for the %d columns of the k-anonymity MIP", len(x), m.Problem.NumCols())
	}
	n := m.N
	g := &model.GenGraph{N: n, Matched: make([][]int32, n)}
	for j := 0; j < n; j++ {
		g.Matched[j] = append(g.Matched[j], int32(j))
		for i := 0; i < n; i++ {
			if i == j {
				continue
			}
			v := x[m.xcol[i*n+j]]
			switch {
			case math.Abs(v) <= 1e-5:
			case math.Abs(v-1) <= 1e-5:
				g.Matched[j] = append(g.Matched[j], int32(i))
			default:
				return nil, fmt.Errorf("ip: x_%d_%d = %v is not binary", i, j, v)
			}
		}
		slices.Sort(g.Matched[j])
	}
	if err := g.CheckRegular(m.K); err != nil {
		return nil, fmt.Errorf("ip: engine solution: %w", err)
	}
	return g, nil
}

// SolveKAnonMIP finds a GCP-optimal k-regular generalization graph of t
// (identity round included) with the MIP engine solver ("" or "auto": the
// preferred MIP engine) and parameters prm (nil: defaults, with the tight
// gaps of package solvers). After a time limit the best graph found is
// returned with Optimal false; no solution at all is an error. Errors
// also: those of KAnonMIPProblem, an unknown or unavailable engine, the
// lpsolve engine (refused: on this model lp_solve 5.5 reports optimal
// solutions that enumeration shows are not), and an engine failure.
func SolveKAnonMIP(t *model.QITable, k int, solver string, prm *solvers.Params) (*KAnonMIPResult, error) {
	start := time.Now()
	m, err := KAnonMIPProblem(t, k)
	if err != nil {
		return nil, err
	}
	if solver == "" {
		solver = "auto"
	}
	s, err := solvers.New(solver, true)
	if err != nil {
		return nil, fmt.Errorf("ip: k-anonymity MIP: %w", err)
	}
	if s.Name() == "lpsolve" {
		return nil, fmt.Errorf("ip: k-anonymity MIP: %w: lp_solve 5.5 ends this model's branch and bound early and reports a wrong optimum "+
			"(found against enumeration on 6-record tables, with every branching and presolve option tried); use highs or cbc", solvers.ErrUnsupported)
	}
	res, err := s.Solve(m.Problem, prm)
	if err != nil {
		return nil, fmt.Errorf("ip: k-anonymity MIP (%s): %w", s.Name(), err)
	}
	if !res.HasSolution {
		return nil, fmt.Errorf("%w: k-anonymity MIP (%s, n = %d, k = %d) stopped with status %s", ErrNoSolution, s.Name(), m.N, k, res.Status)
	}
	g, err := m.Decode(res.X)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, s.Name())
	}
	name := res.Solver
	if name == "" {
		name = s.Name()
	}
	return &KAnonMIPResult{
		Graph:     g,
		GCP:       t.GCP(g),
		Bound:     res.BestBound,
		Optimal:   res.Status == solvers.Optimal,
		Objective: res.Objective,
		Status:    res.Status,
		Seconds:   time.Since(start).Seconds(),
		Solver:    name,
	}, nil
}

// addNumericSteps adds the step form of numeric attribute a (objective
// coefficient c per unit of the attribute): with the distinct values
// u_0 < … < u_m of the table and T_j's own value u_s, one variable per
// step above, up_jt ≥ x_ij for every i with v_ia > u_t (t = s..m−1,
// "the box reaches u_{t+1}"), and one per step below, dn_jt ≥ x_ij for
// every i with v_ia < u_t (t = 1..s), with objective c·(u_{t+1} − u_t)
// and c·(u_t − u_{t−1}). The sum telescopes to c·(hi − lo) of the box,
// exactly as for hierarchies; in the LP relaxation it dominates the
// big-M rows, since Σ_t (u_{t+1} − u_t)·up_jt ≥ (v_ia − v_ja)·x_ij for
// every i.
func addNumericSteps(b *solvers.RowBuilder, m *KAnonMIP, t *model.QITable, a int, c float64) {
	n, d := t.N, t.D()
	attr := &t.Attrs[a]
	u := make([]float64, 0, n+2)
	for i := range n {
		if v := t.X[i*d+a]; !model.IsMissing(v) {
			u = append(u, v)
		} else if len(u) == 0 || u[0] != attr.Min {
			// A missing value spans the whole range: the steps reach
			// its ends.
			u = append([]float64{attr.Min, attr.Max}, u...)
		}
	}
	slices.Sort(u)
	u = slices.Compact(u)
	as := strconv.Itoa(a)
	for j := 0; j < n; j++ {
		js := strconv.Itoa(j)
		vj := t.X[j*d+a]
		if model.IsMissing(vj) {
			// Any value: T_j's box is the whole range, a constant term.
			b.AddVar(c*(attr.Max-attr.Min), 1, 1, solvers.Continuous, "all_"+js+"_"+as)
			continue
		}
		s, _ := slices.BinarySearch(u, vj)
		// A record with a missing value (any value) forces every step.
		for tt := s; tt+1 < len(u); tt++ {
			w := b.AddVar(c*(u[tt+1]-u[tt]), 0, 1, solvers.Continuous, "up_"+js+"_"+as+"_"+strconv.Itoa(tt))
			for i := 0; i < n; i++ {
				if vi := t.X[i*d+a]; vi > u[tt] || (i != j && model.IsMissing(vi)) {
					b.AddConstraint(0, solvers.Inf, []int{w, m.xcol[i*n+j]}, []float64{1, -1}, "")
				}
			}
		}
		for tt := s; tt >= 1; tt-- {
			w := b.AddVar(c*(u[tt]-u[tt-1]), 0, 1, solvers.Continuous, "dn_"+js+"_"+as+"_"+strconv.Itoa(tt))
			for i := 0; i < n; i++ {
				if vi := t.X[i*d+a]; vi < u[tt] || (i != j && model.IsMissing(vi)) {
					b.AddConstraint(0, solvers.Inf, []int{w, m.xcol[i*n+j]}, []float64{1, -1}, "")
				}
			}
		}
	}
}
