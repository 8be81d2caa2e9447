package colgen

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/solvers"
)

// Branch-and-price (beyond the paper). After the root column generation
// converges with a gap the gap-closing stage could not close, Run
// branches on record pairs as Ryan & Foster do for set partitioning: in a
// fractional master solution some pair i, j has
// z_ij = Σ_{C ∋ i,j} x_C strictly between 0 and 1 (if every z_ij is 0 or
// 1 the solution is integral), and the two children require i and j
// together (every group holds both or neither) or apart (no group holds
// both). A node's master keeps the one column pool of the run (shared by
// all nodes): the columns its constraints exclude get the upper bound 0,
// and its pricing — complete enumeration with the node's constraints
// (enumerate.Options.Accept), after the greedy pricing filtered by them —
// adds columns to the pool. Artificial columns (one per record, cost
// bigM) keep every node's LP feasible.
//
// Every node's Lagrangian bound (Σλ + lagrangianTerm of its constrained
// pricing) bounds the partitions of its subtree, so a node whose bound
// reaches the incumbent is pruned, and the smallest bound of the open
// nodes is a lower bound on the optimal SSE at any moment. Nodes are taken
// best bound first, ties to the deepest (children inherit their parent's
// bound, so the search dives until a node's bound rises). Integral node
// solutions and the roundings of fractional ones (SRH, MSTH) update the
// incumbent. The pricing ILP does not know the constraints: nodes price by
// enumeration whatever Options.Exact says.
//
// When the root ended with subset-row cuts in the master (subsetrow.go),
// the cuts stay rows of every node's master (they hold for every
// partition, so for every subtree), new columns get their cut
// coefficients, and the nodes price with the cut terms under the node's
// cut duals σ ≤ 0 as the enumeration's penalty (cutTerms); a node's bound
// is then Σλ + Σσ + lagrangianTerm, as at the root.

// bpNode is a node of the branch-and-price tree.
type bpNode struct {
	together, apart [][2]int
	bound           float64 // a lower bound on every partition of the subtree
	depth           int
}

// accept reports whether a group (members ascending) satisfies the
// node's constraints.
func (nd *bpNode) accept(members []int) bool {
	has := func(v int) bool { _, ok := slices.BinarySearch(members, v); return ok }
	for _, p := range nd.together {
		if has(p[0]) != has(p[1]) {
			return false
		}
	}
	for _, p := range nd.apart {
		if has(p[0]) && has(p[1]) {
			return false
		}
	}
	return true
}

// brancher holds the state the tree shares with the root.
type brancher struct {
	d        *model.SqDist
	n, k     int
	sess     solvers.Session
	prm      *solvers.Params
	cs       *columnSet
	sessCol  []int // session column of cs.cols[j]
	art      []int // session columns of the artificials
	allowed  []bool
	pr       *pricer
	src      *srcPool // the master's subset-row cuts (nil or empty: none)
	rd       *rounder
	consider func([][]int, string) float64
	best     *incumbent
	deadline time.Time
	nodes    int
	// unresolved is the smallest bound of nodes the tree could neither
	// prune nor branch (a numerical corner case): they keep the bound
	// below the incumbent.
	unresolved float64
	progress   func(nodes, open int, bound float64)
}

// bpOutcome reports the tree.
type bpOutcome struct {
	bound    float64 // lower bound on the optimal SSE
	proven   bool    // every node pruned: the incumbent is optimal
	timedOut bool
	nodes    int
	open     int
}

func (b *brancher) pruned(bound float64) bool {
	return bound >= b.best.sse-exactTol*math.Max(1, b.best.sse)
}

// run explores the tree from a root whose bound is rootBound.
func (b *brancher) run(rootBound float64) (*bpOutcome, error) {
	b.unresolved = math.Inf(1)
	// Artificial columns: one per record, cost above any partition's.
	bigM := b.best.sse + 1
	obj := make([]float64, b.n)
	lo := make([]float64, b.n)
	up := make([]float64, b.n)
	start := make([]int, b.n+1)
	rows := make([]int, b.n)
	vals := make([]float64, b.n)
	for v := range b.n {
		obj[v], up[v], start[v+1], rows[v], vals[v] = bigM, math.Inf(1), v+1, v, 1
	}
	first := b.sess.NumCols()
	if err := b.sess.AddCols(obj, lo, up, nil, start, rows, vals); err != nil {
		return nil, fmt.Errorf("colgen: branch-and-price artificial columns: %w", err)
	}
	for v := range b.n {
		b.art = append(b.art, first+v)
	}
	b.sessCol = make([]int, len(b.cs.cols))
	for j := range b.sessCol {
		b.sessCol[j] = j
	}
	b.allowed = make([]bool, len(b.cs.cols))
	for j := range b.allowed {
		b.allowed[j] = true
	}
	open := []*bpNode{{bound: rootBound}}
	out := &bpOutcome{}
	for len(open) > 0 {
		// Best bound first, ties to the deepest.
		i := 0
		for j, nd := range open {
			if nd.bound < open[i].bound || (nd.bound == open[i].bound && nd.depth > open[i].depth) {
				i = j
			}
		}
		nd := open[i]
		if b.pruned(nd.bound) {
			open = slices.Delete(open, i, i+1)
			continue
		}
		if !b.deadline.IsZero() && time.Now().After(b.deadline) {
			out.timedOut = true
			break
		}
		open = slices.Delete(open, i, i+1)
		children, timedOut, err := b.solveNode(nd)
		if err != nil {
			return nil, err
		}
		b.nodes++
		if timedOut {
			open = append(open, nd) // its bound still holds
			out.timedOut = true
			break
		}
		open = append(open, children...)
		if b.progress != nil {
			b.progress(b.nodes, len(open), b.lower(open))
		}
	}
	out.nodes, out.open = b.nodes, len(open)
	out.bound = b.lower(open)
	out.proven = len(open) == 0 && math.IsInf(b.unresolved, 1)
	return out, nil
}

// lower is the smallest bound of the open and unresolved nodes, at most
// the incumbent.
func (b *brancher) lower(open []*bpNode) float64 {
	lb := min(b.best.sse, b.unresolved)
	for _, nd := range open {
		if !b.pruned(nd.bound) {
			lb = min(lb, nd.bound)
		}
	}
	return lb
}

// solveNode runs the column generation of one node and returns its
// children (none when it is pruned or solved).
func (b *brancher) solveNode(nd *bpNode) ([]*bpNode, bool, error) {
	for j, g := range b.cs.cols {
		if ok := nd.accept(g); ok != b.allowed[j] {
			up := 0.0
			if ok {
				up = math.Inf(1)
			}
			if err := b.sess.SetColBounds(b.sessCol[j], 0, up); err != nil {
				return nil, false, fmt.Errorf("colgen: branch-and-price column bounds: %w", err)
			}
			b.allowed[j] = ok
		}
	}
	b.pr.accept = nd.accept
	defer func() { b.pr.accept, b.pr.penalty = nil, nil }()
	ncuts := 0
	if b.src != nil {
		ncuts = len(b.src.cuts)
	}
	bound := nd.bound
	var x, rc []float64
	for {
		if !b.deadline.IsZero() {
			b.prm.TimeLimit = time.Until(b.deadline)
			if b.prm.TimeLimit <= 0 {
				nd.bound = bound
				return nil, true, nil
			}
		}
		t0 := time.Now()
		mr, err := b.sess.Solve()
		b.pr.stats.MasterSeconds += time.Since(t0).Seconds()
		b.pr.stats.MasterSolves++
		if err != nil {
			return nil, false, fmt.Errorf("colgen: branch-and-price master LP: %w", err)
		}
		if mr.Status == solvers.TimeLimit {
			nd.bound = bound
			return nil, true, nil
		}
		if mr.Status != solvers.Optimal || !mr.HasDuals {
			return nil, false, fmt.Errorf("colgen: branch-and-price master LP ended %v without optimal duals", mr.Status)
		}
		x, rc = mr.X, mr.ReducedCosts
		lambda, sigma := splitCutDuals(mr.Duals, b.n, ncuts)
		b.pr.penalty = b.src.penalty(sigma)
		out, err := b.pr.price(lambda)
		if err != nil {
			return nil, false, err
		}
		sumLambda := floatSum(lambda) + floatSum(sigma)
		bound = max(bound, sumLambda+lagrangianTerm(b.n, b.k, out.lb))
		if b.pruned(bound) {
			return nil, false, nil
		}
		var newCols [][]int
		for _, c := range out.cols {
			newCols = b.cs.addNew(newCols, [][]int{c.Members})
		}
		if out.complete {
			break
		}
		if len(newCols) == 0 && !out.timedOut {
			// Only pool columns found: new groups by complete enumeration.
			if newCols, out.timedOut, err = b.pr.newGroups(lambda, b.cs, newCols); err != nil {
				return nil, false, err
			}
		}
		if len(newCols) == 0 {
			if out.timedOut {
				nd.bound = bound
				return nil, true, nil
			}
			lb, _, complete, err := b.pr.exactBounds(lambda)
			if err != nil {
				return nil, false, err
			}
			bound = max(bound, sumLambda+lagrangianTerm(b.n, b.k, lb))
			if !complete {
				nd.bound = bound
				return nil, true, nil
			}
			break
		}
		obj, lo, up, st, rows, vals, err := b.src.columns(b.d, newCols)
		if err != nil {
			return nil, false, err
		}
		next := b.sess.NumCols()
		if err := b.sess.AddCols(obj, lo, up, nil, st, rows, vals); err != nil {
			return nil, false, fmt.Errorf("colgen: branch-and-price adding columns: %w", err)
		}
		for i := range newCols {
			b.sessCol = append(b.sessCol, next+i)
			b.allowed = append(b.allowed, true)
		}
	}
	if b.pruned(bound) {
		return nil, false, nil
	}
	// The node's master solution over the pool.
	xc := make([]float64, len(b.cs.cols))
	rcc := make([]float64, len(b.cs.cols))
	for j, s := range b.sessCol {
		if s < len(x) {
			xc[j], rcc[j] = x[s], rc[s]
		}
	}
	artMass := 0.0
	for _, s := range b.art {
		artMass += x[s]
	}
	if artMass <= 1e-9 {
		if g, ok := integralGroups(xc, b.cs.cols); ok {
			b.consider(g, "branch")
			return nil, false, nil
		}
	}
	b.consider(b.rd.simpleRounding(xc, rcc, b.cs.cols), "branch")
	b.consider(b.rd.mstRounding(xc, b.cs.cols), "branch")
	if b.pruned(bound) {
		return nil, false, nil
	}
	i, j, ok := fractionalPair(xc, b.cs.cols, b.n)
	if !ok {
		b.unresolved = min(b.unresolved, bound)
		return nil, false, nil
	}
	tg := &bpNode{together: append(slices.Clone(nd.together), [2]int{i, j}), apart: nd.apart, bound: bound, depth: nd.depth + 1}
	ap := &bpNode{together: nd.together, apart: append(slices.Clone(nd.apart), [2]int{i, j}), bound: bound, depth: nd.depth + 1}
	return []*bpNode{tg, ap}, false, nil
}

// fractionalPair returns the pair i < j whose z_ij = Σ_{C ∋ i,j} x_C is
// closest to 1/2 among those strictly between 0 and 1 (tolerance 1e-6).
func fractionalPair(x []float64, cols [][]int, n int) (int, int, bool) {
	z := map[int64]float64{}
	for c, v := range x {
		if v <= 1e-9 {
			continue
		}
		g := cols[c]
		for a, i := range g {
			for _, j := range g[a+1:] {
				z[int64(min(i, j))*int64(n)+int64(max(i, j))] += v
			}
		}
	}
	bi, bj, bd := -1, -1, math.Inf(1)
	for key, v := range z {
		if v <= 1e-6 || v >= 1-1e-6 {
			continue
		}
		i, j := int(key/int64(n)), int(key%int64(n))
		d := math.Abs(v - 0.5)
		if d < bd || (d == bd && (i < bi || (i == bi && j < bj))) {
			bi, bj, bd = i, j, d
		}
	}
	return bi, bj, bi >= 0
}
