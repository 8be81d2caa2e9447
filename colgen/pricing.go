package colgen

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sdcopt/sdcopt/ip"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// Exact pricing methods (Options.Exact).
const (
	ExactTable2 = "table2" // the paper's Table 2 rule
	ExactCE     = "ce"     // complete enumeration for every size (default)
	ExactEP     = "ep"     // the edge-only ILP (14) for every size
)

// ExactMethods lists the accepted values of Options.Exact.
func ExactMethods() []string { return []string{ExactCE, ExactEP, ExactTable2} }

// Table2 returns the paper's choice between complete enumeration ("ce")
// and the pricing ILP ("ep") for n records and group size eta (Gentile,
// Spagnolo-Arrizabalaga & Castro, Table 2): CE up to size 5, EP from size 7,
// and for size 6 CE up to n = 100 and EP at n = 200 (we switch at n = 150,
// midway between the published columns).
func Table2(n, eta int) string {
	switch {
	case eta <= 5:
		return ExactCE
	case eta == 6 && n < 150:
		return ExactCE
	}
	return ExactEP
}

// checkExactPricingSize returns an error wrapping ip.ErrPricingTooLarge
// (and ErrInput) when exact pricing method exact would, for some group
// size k..2k-1, solve a pricing ILP (ExactEP, or ExactTable2 where Table2
// picks it) larger than ip.MaxPricingNonzeros over n records. The model's
// size depends on n and the size only, so this is known before any work.
func checkExactPricingSize(n, k int, exact string) error {
	for eta := k; eta <= 2*k-1 && eta <= n; eta++ {
		method := exact
		if method == ExactTable2 {
			method = Table2(n, eta)
		}
		if method != ExactEP {
			continue
		}
		if err := ip.CheckPricingSize(n, eta); err != nil {
			return fmt.Errorf("%w: exact pricing %q: %w; use the complete enumeration (%q) or fewer records", ErrInput, exact, err, ExactCE)
		}
	}
	return nil
}

// rcTolerance returns the reduced cost a column must fall below to enter
// the master: -1e-8 relative to the largest dual. The LP engines accept
// reduced costs down to about -1e-7 on their scaled models, so a tighter
// threshold would re-find columns the master already holds.
func rcTolerance(lambda []float64) float64 {
	m := 1.0
	for _, v := range lambda {
		m = max(m, math.Abs(v))
	}
	return -1e-8 * m
}

// heuristicPricing is SolveHeuristicPricing (Section 5.1): records by
// descending dual; from the first unassigned record v, grow a group by the
// unassigned record whose addition increases the reduced cost least, until
// it has eta members; keep it (and remove its members) when its reduced
// cost is negative; v leaves the candidates either way. The paper's
// selection rule weighs the new record's dual by 1/(eta-1) (its share in
// the edge form (14)); we use the exact increase Σ_{u∈C} c_uw/eta - λ_w,
// which is what the group's reduced cost changes by.
//
// It checks deadline (zero = none) every heuristicCheckEvery start
// records and, once it has passed, returns the columns found so far with
// late set.
func heuristicPricing(d *model.SqDist, lambda []float64, eta int, order []int, inc []float64, used []bool, rcTol float64,
	deadline time.Time) (cols []model.Column, late bool) {
	n := d.N
	for i := range used {
		used[i] = false
	}
	var out []model.Column
	left := n
	members := make([]int, 0, eta)
	for i, v := range order {
		if left < eta {
			break
		}
		if i%heuristicCheckEvery == 0 && !deadline.IsZero() && time.Now().After(deadline) {
			late = true
			break
		}
		if used[v] {
			continue
		}
		used[v] = true
		left--
		members = append(members[:0], v)
		// inc[w] = Σ_{u∈C} c_uw/eta - λ_w for the unassigned w.
		rowV := d.D[v*n : (v+1)*n]
		for w := 0; w < n; w++ {
			inc[w] = rowV[w]/float64(eta) - lambda[w]
		}
		rc := -lambda[v]
		var picked []int
		for len(members) < eta {
			best := -1
			for w := 0; w < n; w++ {
				if used[w] {
					continue
				}
				if best < 0 || inc[w] < inc[best] {
					best = w
				}
			}
			if best < 0 {
				break
			}
			rc += inc[best]
			used[best] = true
			picked = append(picked, best)
			members = append(members, best)
			rowB := d.D[best*n : (best+1)*n]
			for w := 0; w < n; w++ {
				inc[w] += rowB[w] / float64(eta)
			}
		}
		if len(members) == eta && rc < rcTol {
			g := slices.Clone(members)
			slices.Sort(g)
			// Recompute from the distances: the incremental sum drifts.
			out = append(out, model.Column{Members: g, ReducedCost: d.ReducedCost(lambda, g)})
			left -= len(picked)
			continue
		}
		for _, w := range picked {
			used[w] = false
		}
	}
	// Keep only columns whose recomputed reduced cost is negative.
	out = slices.DeleteFunc(out, func(c model.Column) bool { return !(c.ReducedCost < rcTol) })
	return out, late
}

// heuristicCheckEvery is how many start records the greedy pricing grows
// groups from between two looks at the clock: one start costs
// O(n·eta) (about 10 µs for n = 1080, eta = 10), so the deadline is
// overrun by well under a millisecond.
const heuristicCheckEvery = 16

// heuristicBuf is one goroutine's scratch space for heuristicPricing.
type heuristicBuf struct {
	inc  []float64
	used []bool
}

// heuristicSizes runs heuristicPricing for every size in etas, at most
// workers (Options.Workers; 0 = GOMAXPROCS) at a time, and returns the
// columns per size in the order of etas. Each size's greedy run depends
// on lambda and the size alone, so the result is the same whatever the
// scheduling. late says the deadline cut some size short.
func (p *pricer) heuristicSizes(lambda []float64, etas []int, rcTol float64) ([][]model.Column, bool) {
	n := p.d.N
	workers := min(p.workers(), len(etas))
	for len(p.bufs) < workers {
		p.bufs = append(p.bufs, heuristicBuf{inc: make([]float64, n), used: make([]bool, n)})
	}
	out := make([][]model.Column, len(etas))
	lateAt := make([]bool, len(etas))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func(b heuristicBuf) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(etas) {
					return
				}
				out[i], lateAt[i] = heuristicPricing(p.d, lambda, etas[i], p.order, b.inc, b.used, rcTol, p.deadline)
			}
		}(p.bufs[w])
	}
	wg.Wait()
	return out, slices.Contains(lateAt, true)
}

func (p *pricer) workers() int {
	if p.opt.Workers > 0 {
		return p.opt.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// sortOrder sorts p.order by descending dual (ties by record), the order
// in which the greedy pricing starts its groups.
func (p *pricer) sortOrder(lambda []float64) {
	n := p.d.N
	if len(p.order) != n {
		p.order = make([]int, n)
	}
	for i := range p.order {
		p.order[i] = i
	}
	slices.SortStableFunc(p.order, func(a, b int) int { return cmp.Compare(lambda[b], lambda[a]) })
}

// heuristicAll is the greedy pricing of every size k..2k-1 (in parallel,
// heuristicSizes) at lambda: all the columns found, and for every size
// the root bound of complete enumeration (enumerate.Prepared.RootBound,
// clipped at 0) as the lower bound on its smallest reduced cost.
func (p *pricer) heuristicAll(lambda []float64) ([]model.Column, []float64, []string) {
	k, n := p.k, p.d.N
	lb := make([]float64, k)
	proof := make([]string, k)
	var etas []int
	for eta := k; eta <= 2*k-1; eta++ {
		lb[eta-k] = min(0, p.prep.RootBound(lambda, eta))
		proof[eta-k] = ProofRoot
		if eta <= n {
			etas = append(etas, eta)
		}
	}
	p.sortOrder(lambda)
	t0 := time.Now()
	per, _ := p.heuristicSizes(lambda, etas, rcTolerance(lambda))
	p.stats.HeuristicSeconds += time.Since(t0).Seconds()
	p.stats.HeuristicCalls += len(etas)
	var cols []model.Column
	for _, c := range per {
		cols = append(cols, c...)
	}
	p.stats.HeuristicColumns += len(cols)
	return cols, lb, proof
}

// pricer runs PricingProblem (Section 5.1) for one set of duals.
type pricer struct {
	d        *model.SqDist
	k        int
	opt      *Options
	prep     *enumerate.Prepared
	order    []int
	bufs     []heuristicBuf
	stats    *Stats
	deadline time.Time
	// accept, when set, restricts the groups to those of a
	// branch-and-price node (see branch.go); the pricing ILP does not
	// know it, so nodes price by complete enumeration.
	accept func([]int) bool
	// penalty, when set, adds the subset-row cut terms to every reduced
	// cost (cutTerms): the greedy columns are re-ranked with it and the
	// complete enumeration prunes and ranks with it; the pricing ILP does
	// not know it either.
	penalty enumerate.Penalty
	// noGreedy skips the greedy pricing (priceNew).
	noGreedy bool
}

// priceOutcome is the result of one pricing round.
type priceOutcome struct {
	cols []model.Column
	// lb[eta-k] is a valid lower bound on the smallest reduced cost of a
	// group of size eta under these duals.
	lb []float64
	// proof[eta-k] says how lb[eta-k] was proven (ProofRoot, ...).
	proof []string
	// complete: every size was priced exactly without finding a column
	// (the master LP value is then the lower bound).
	complete bool
	// timedOut: the deadline passed during pricing.
	timedOut bool
}

// withPenalty adds the penalty to the reduced costs of cols and keeps those
// still below rcTol, by ascending reduced cost (ties by members).
func (p *pricer) withPenalty(cols []model.Column, rcTol float64) []model.Column {
	out := make([]model.Column, 0, len(cols))
	for _, c := range cols {
		c.ReducedCost += enumerate.PenaltyOf(p.penalty, c.Members)
		if c.ReducedCost < rcTol {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b model.Column) int {
		if c := cmp.Compare(a.ReducedCost, b.ReducedCost); c != 0 {
			return c
		}
		return slices.Compare(a.Members, b.Members)
	})
	return out
}

// priceNew returns groups of negative reduced cost that are not columns
// yet (known reports those that are; it is called from several
// goroutines), by complete enumeration alone, size after size. The run
// calls it when price found only columns the master holds: the greedy
// pricing of a size can re-find a master column whose reduced cost is
// negative within the LP engine's tolerances and end the pricing there,
// while a group of that or a later size has a clearly negative one.
// timedOut reports the deadline; bounds are not returned (they would hold
// for the new groups only).
func (p *pricer) priceNew(lambda []float64, known func([]int) bool) (cols []model.Column, timedOut bool, err error) {
	accept, noGreedy := p.accept, p.noGreedy
	defer func() { p.accept, p.noGreedy = accept, noGreedy }()
	p.accept = func(g []int) bool { return !known(g) && (accept == nil || accept(g)) }
	p.noGreedy = true
	out, err := p.price(lambda)
	if err != nil {
		return nil, false, err
	}
	return out.cols, out.timedOut, nil
}

// newGroups is priceNew against the columns of cs: it appends to dst the
// groups found (registering them in cs) and counts the pricing in
// Stats.NewGroupPricings.
func (p *pricer) newGroups(lambda []float64, cs *columnSet, dst [][]int) ([][]int, bool, error) {
	extra, timedOut, err := p.priceNew(lambda, cs.contains)
	if err != nil {
		return nil, false, err
	}
	for _, c := range extra {
		dst = cs.addNew(dst, [][]int{c.Members})
	}
	p.stats.NewGroupPricings++
	return dst, timedOut, nil
}

func (p *pricer) price(lambda []float64) (*priceOutcome, error) {
	n, k := p.d.N, p.k
	rcTol := rcTolerance(lambda)
	out := &priceOutcome{lb: make([]float64, k), proof: make([]string, k)}
	for eta := k; eta <= 2*k-1; eta++ {
		out.lb[eta-k] = min(0, p.prep.RootBound(lambda, eta))
		out.proof[eta-k] = ProofRoot
	}
	p.sortOrder(lambda)
	// The greedy pricing of the next sizes runs ahead in parallel, a batch
	// of workers sizes at a time (heuristicSizes); the first size of the
	// batch that yields columns ends the pricing as in the sequential
	// order, so the result does not depend on the batch.
	var greedy [][]model.Column
	greedyFrom := 0
	for eta := k; eta <= 2*k-1 && eta <= n; eta++ {
		if !p.opt.NoHeuristicPricing && !p.noGreedy {
			if eta-k >= greedyFrom+len(greedy) {
				var etas []int
				for e := eta; e < eta+p.workers() && e <= 2*k-1 && e <= n; e++ {
					etas = append(etas, e)
				}
				t0 := time.Now()
				greedy, _ = p.heuristicSizes(lambda, etas, rcTol)
				greedyFrom = eta - k
				p.stats.HeuristicSeconds += time.Since(t0).Seconds()
			}
			cols := greedy[eta-k-greedyFrom]
			if p.accept != nil {
				cols = slices.DeleteFunc(cols, func(c model.Column) bool { return !p.accept(c.Members) })
			}
			if p.penalty != nil {
				cols = p.withPenalty(cols, rcTol)
			}
			p.stats.HeuristicCalls++
			if len(cols) > 0 {
				p.stats.HeuristicColumns += len(cols)
				out.cols = cols
				return out, nil
			}
		}
		if !p.deadline.IsZero() && time.Now().After(p.deadline) {
			out.timedOut = true
			return out, nil
		}
		method := p.opt.Exact
		switch method {
		case "":
			method = ExactCE
		case ExactTable2:
			method = Table2(n, eta)
		}
		if p.accept != nil || p.penalty != nil {
			method = ExactCE
		}
		inst := &model.PricingInstance{Dist: p.d, Lambda: lambda, Eta: eta}
		switch method {
		case ExactCE:
			t0 := time.Now()
			res, err := p.prep.Solve(lambda, eta, &enumerate.Options{
				Workers: p.opt.Workers, MaxColumns: p.opt.maxCEColumns(), Threshold: rcTol, Deadline: p.deadline, Accept: p.accept, Penalty: p.penalty,
			})
			p.stats.CESeconds += time.Since(t0).Seconds()
			p.stats.CECalls++
			if err != nil {
				return nil, err
			}
			if lb := min(0, res.LowerBound); lb > out.lb[eta-k] {
				out.lb[eta-k], out.proof[eta-k] = lb, ProofEnumeration
			}
			if !res.Complete {
				out.timedOut = true
				return out, nil
			}
			if len(res.Columns) > 0 {
				out.cols = res.Columns
				return out, nil
			}
		case ExactEP:
			prm := &solvers.Params{}
			if !p.deadline.IsZero() {
				prm.TimeLimit = time.Until(p.deadline)
				if prm.TimeLimit <= 0 {
					out.timedOut = true
					return out, nil
				}
			}
			t0 := time.Now()
			res, err := ip.SolveExactPricing(inst, &ip.PricingOptions{
				Solver: pickEngine(p.opt.MIPSolver, "lpsolve", "cbc", "highs"), Params: prm, TriangleCuts: p.opt.TriangleCuts,
			})
			p.stats.EPSeconds += time.Since(t0).Seconds()
			p.stats.EPCalls++
			if err != nil {
				return nil, fmt.Errorf("colgen: exact pricing, size %d: %w", eta, err)
			}
			if !res.Optimal {
				if lb := min(0, res.BestBound); lb > out.lb[eta-k] { // false for NaN
					out.lb[eta-k], out.proof[eta-k] = lb, ProofILP
				}
				if res.Found && res.Column.ReducedCost < rcTol {
					out.cols = []model.Column{res.Column}
				}
				out.timedOut = true
				return out, nil
			}
			// Optimal: the column's reduced cost is the minimum (up to the
			// engine's gap, which BestBound covers).
			lb := res.Column.ReducedCost
			if !math.IsNaN(res.BestBound) {
				lb = min(lb, res.BestBound)
			}
			if lb := min(0, lb); lb > out.lb[eta-k] {
				out.lb[eta-k], out.proof[eta-k] = lb, ProofILP
			}
			if res.Column.ReducedCost < rcTol {
				out.cols = []model.Column{res.Column}
				return out, nil
			}
		default:
			return nil, fmt.Errorf("colgen: unknown exact pricing %q (want one of %v)", method, ExactMethods())
		}
	}
	out.complete = true
	return out, nil
}

// exactBounds prices every size k..2k-1 by complete enumeration and
// returns the minimum reduced cost per size (clipped at 0): the tightest
// Lagrangian bound for these duals. It serves when the master and the
// pricing disagree within tolerances (see Run).
//
// The sizes a deadline leaves unpriced keep the root bound
// (enumerate.Prepared.RootBound): a zero there would claim that no group
// of that size has a negative reduced cost. proofs says which is which.
func (p *pricer) exactBounds(lambda []float64) (lb []float64, proofs []string, complete bool, err error) {
	k := p.k
	lb, proofs = make([]float64, k), make([]string, k)
	for eta := k; eta <= 2*k-1; eta++ {
		lb[eta-k], proofs[eta-k] = min(0, p.prep.RootBound(lambda, eta)), ProofRoot
	}
	for eta := k; eta <= 2*k-1 && eta <= p.d.N; eta++ {
		res, err := p.prep.Solve(lambda, eta, &enumerate.Options{Workers: p.opt.Workers, Threshold: 0, Deadline: p.deadline, Accept: p.accept, Penalty: p.penalty})
		if err != nil {
			return nil, nil, false, err
		}
		if b := min(0, res.LowerBound); b > lb[eta-k] {
			lb[eta-k], proofs[eta-k] = b, ProofEnumeration
		}
		if !res.Complete {
			return lb, proofs, false, nil
		}
	}
	return lb, proofs, true, nil
}
