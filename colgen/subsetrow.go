package colgen

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/lp"
	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// Subset-row cuts (Jepsen, Petersen, Spoorendonk & Pisinger, "Subset-row
// inequalities applied to the vehicle-routing problem with time windows",
// Operations Research 56(2), 2008): for a set S of three records, at most
// one group of a partition holds two or more of them, so
//
//	Σ_{C: |C∩S| ≥ 2} x_C ≤ 1
//
// holds for every partition (it is the rank-1 Chvátal-Gomory cut of the
// three rows of S with multipliers ½, rounded down). The master LP violates
// it when, for instance, four close records are covered by their four
// triples at ⅓ each (the sum is 4/3 for any three of them).

// srcCut is a violated subset-row cut: the records S (ascending) and the
// left-hand side minus 1 at the separated solution.
type srcCut struct {
	S    [3]int
	Viol float64
}

// srcHits reports that group g (any order) holds two or more records of s.
func srcHits(g []int, s [3]int) bool {
	c := 0
	for _, v := range g {
		if v == s[0] || v == s[1] || v == s[2] {
			c++
		}
	}
	return c >= 2
}

// separateSRC returns the subset-row cuts of three records that x (one
// value per group of cols) violates by more than tol, most violated first,
// at most maxCuts of them. Only the fractional groups matter: a group at
// 1 covers its records alone, so no other group with x > 0 shares two of
// them with a cut it is in. The candidates are the triples {a, b, c} in
// which a shares a fractional group with b and one with c; the left-hand
// side is then summed over the fractional groups of a, b and c.
func separateSRC(cols [][]int, x []float64, tol float64, maxCuts int) []srcCut {
	const eps = 1e-9
	byRec := map[int][]int{} // record -> fractional groups holding it
	for c, v := range x {
		if v <= eps || v >= 1-eps {
			continue
		}
		for _, u := range cols[c] {
			byRec[u] = append(byRec[u], c)
		}
	}
	recs := make([]int, 0, len(byRec))
	for u := range byRec {
		recs = append(recs, u)
	}
	slices.Sort(recs)
	seen := map[[3]int]bool{}
	var out []srcCut
	var nb []int
	mark := map[int]bool{}
	for _, a := range recs {
		// The records sharing a fractional group with a.
		nb = nb[:0]
		clear(mark)
		for _, c := range byRec[a] {
			for _, u := range cols[c] {
				if u != a && !mark[u] {
					mark[u] = true
					nb = append(nb, u)
				}
			}
		}
		slices.Sort(nb)
		for i, b := range nb {
			for _, c := range nb[i+1:] {
				s := [3]int{a, b, c}
				slices.Sort(s[:])
				if seen[s] {
					continue
				}
				seen[s] = true
				lhs := 0.0
				for _, r := range s {
					for _, col := range byRec[r] {
						// Count each group once: at its first record in s.
						if srcHits(cols[col], s) && firstIn(cols[col], s) == r {
							lhs += x[col]
						}
					}
				}
				if lhs > 1+tol {
					out = append(out, srcCut{S: s, Viol: lhs - 1})
				}
			}
		}
	}
	slices.SortFunc(out, func(p, q srcCut) int {
		if c := cmp.Compare(q.Viol, p.Viol); c != 0 {
			return c
		}
		return slices.Compare(p.S[:], q.S[:])
	})
	if len(out) > maxCuts {
		out = out[:maxCuts]
	}
	return out
}

// firstIn returns the smallest record of s that g holds (-1 if none).
func firstIn(g []int, s [3]int) int {
	for _, r := range s {
		if slices.Contains(g, r) {
			return r
		}
	}
	return -1
}

// srcPool holds the subset-row cuts of the master, rows n, n+1, ... after
// the n record rows, and finds the cuts a group hits.
type srcPool struct {
	cuts   [][3]int
	keys   map[[3]int]bool
	byPair map[[2]int][]int // (u, v), u < v -> the cuts holding both
}

func newSRCPool() *srcPool { return &srcPool{keys: map[[3]int]bool{}, byPair: map[[2]int][]int{}} }

// add registers s (ascending) and reports whether it is new.
func (p *srcPool) add(s [3]int) bool {
	if p.keys[s] {
		return false
	}
	p.keys[s] = true
	i := len(p.cuts)
	p.cuts = append(p.cuts, s)
	for _, pr := range [][2]int{{s[0], s[1]}, {s[0], s[2]}, {s[1], s[2]}} {
		p.byPair[pr] = append(p.byPair[pr], i)
	}
	return true
}

// each calls f with the index of every cut that group g (ascending)
// hits, once per cut. A cut is found through each of its pairs that g
// holds and counted at the first of them (in the order (s0,s1), (s0,s2),
// (s1,s2)). It only reads the pool, so goroutines may share it.
func (p *srcPool) each(g []int, f func(int)) {
	if len(p.cuts) == 0 {
		return
	}
	for i, u := range g {
		for _, v := range g[i+1:] {
			for _, c := range p.byPair[[2]int{u, v}] {
				s := p.cuts[c]
				switch {
				case u == s[0] && v == s[1]:
				case u == s[0] && v == s[2] && !slices.Contains(g, s[1]):
				case u == s[1] && v == s[2] && !slices.Contains(g, s[0]):
				default:
					continue
				}
				f(c)
			}
		}
	}
}

// reducedCost is the reduced cost of group g (ascending) with the record
// duals lambda and the cut duals sigma (≤ 0): SSE(g) − Σ_{v∈g} λ_v −
// Σ_{S hit} σ_S, never below the reduced cost under lambda alone.
func (p *srcPool) reducedCost(d *model.SqDist, lambda, sigma []float64, g []int) float64 {
	rc := d.ReducedCost(lambda, g)
	p.each(g, func(c int) {
		if c < len(sigma) { // cuts added after sigma was taken count as 0
			rc -= sigma[c]
		}
	})
	return rc
}

// cutTerms is the cut part of the reduced cost, −Σ σ_S over the cuts S
// a group hits, as an enumerate.Penalty: it never decreases as records
// join a group (every σ ≤ 0), so the enumeration prunes partial groups on
// their cut terms and ranks groups by their reduced cost with the cuts.
// byRec lists per record the cuts with σ < 0 that hold it, as the other
// two records and the dual (most duals are 0 and most records in none).
type cutTerms struct {
	byRec [][]cutEnd
}

// cutEnd is a cut seen from one of its records: the other two and σ.
type cutEnd struct {
	a, b  int
	sigma float64
}

// Extra is the cut terms of the cuts that v's joining makes g hit: those
// holding v and exactly one record of g (g holding two records of a cut
// already hits it).
func (c *cutTerms) Extra(g []int, v int) float64 {
	if v >= len(c.byRec) {
		return 0
	}
	s := 0.0
	for _, e := range c.byRec[v] {
		if slices.Contains(g, e.a) != slices.Contains(g, e.b) {
			s -= e.sigma
		}
	}
	return s
}

// penalty returns the cut terms under sigma (cuts added after sigma was
// taken count as 0) as an enumerate.Penalty, nil without cuts of σ < 0.
func (p *srcPool) penalty(sigma []float64) enumerate.Penalty {
	if p == nil {
		return nil
	}
	var byRec [][]cutEnd
	for i, sg := range sigma {
		if sg >= 0 || i >= len(p.cuts) {
			continue
		}
		s := p.cuts[i]
		if len(byRec) <= s[2] {
			byRec = append(byRec, make([][]cutEnd, s[2]+1-len(byRec))...)
		}
		byRec[s[0]] = append(byRec[s[0]], cutEnd{s[1], s[2], sg})
		byRec[s[1]] = append(byRec[s[1]], cutEnd{s[0], s[2], sg})
		byRec[s[2]] = append(byRec[s[2]], cutEnd{s[0], s[1], sg})
	}
	if byRec == nil {
		return nil
	}
	return &cutTerms{byRec: byRec}
}

// cutPenalty is closeGap's penalty: the cut terms under the cut duals of
// the last converged round with cuts (nil when none converged).
func (r *run) cutPenalty() enumerate.Penalty {
	if r.cutSigma == nil {
		return nil
	}
	return r.src.penalty(r.cutSigma)
}

// columns returns groups as master columns in the CSC form of
// solvers.Session.AddCols: the record rows of lp.MasterColumns plus a 1
// in the row n+c of every cut c the group hits.
func (p *srcPool) columns(d *model.SqDist, groups [][]int) (obj, lo, up []float64, start, rows []int, vals []float64, err error) {
	if p == nil || len(p.cuts) == 0 {
		return lp.MasterColumns(d, groups)
	}
	obj, lo, up, start0, rows0, _, err := lp.MasterColumns(d, groups)
	if err != nil {
		return nil, nil, nil, nil, nil, nil, err
	}
	start = make([]int, 1, len(groups)+1)
	for c, g := range groups {
		rows = append(rows, rows0[start0[c]:start0[c+1]]...)
		p.each(g, func(i int) { rows = append(rows, d.N+i) })
		start = append(start, len(rows))
	}
	vals = make([]float64, len(rows))
	for i := range vals {
		vals[i] = 1
	}
	return obj, lo, up, start, rows, vals, nil
}

// rowsFor returns the cuts from index `from` on as rows over the columns
// cols (CSR form of solvers.Session.AddRows): Σ_{C hits S} x_C ≤ 1.
func (p *srcPool) rowsFor(from int, cols [][]int) (lo, up []float64, start, idx []int, vals []float64) {
	per := make([][]int, len(p.cuts)-from)
	for j, g := range cols {
		p.each(g, func(c int) {
			if c >= from {
				per[c-from] = append(per[c-from], j)
			}
		})
	}
	start = []int{0}
	for _, js := range per {
		idx = append(idx, js...)
		start = append(start, len(idx))
		lo = append(lo, math.Inf(-1))
		up = append(up, 1)
	}
	vals = make([]float64, len(idx))
	for i := range vals {
		vals[i] = 1
	}
	return lo, up, start, idx, vals
}

// Limits of the subset-row phase: the most cuts one separation adds, the
// most separation rounds, and the violation a cut must exceed.
const (
	srcMaxPerRound = 2000
	srcMaxRounds   = 20
	srcViolation   = 1e-4
)

// subsetRowPhase runs after the master loop converged, unless
// Options.NoSubsetRowCuts: rounds of separating violated subset-row cuts
// from the master's solution, adding them as rows, and column generation
// with exact pricing under the cut duals until no group has a negative
// reduced cost again, until no cut is violated (or srcMaxRounds, or the
// loop's time share).
//
// The pricing stays exact: with cut duals σ ≤ 0 the cut terms of a group
// never decrease as records join it, so complete enumeration takes them
// as its penalty (cutTerms): it prunes a partial group on its reduced
// cost under λ plus the cut terms it already hits, and ranks the groups
// by their reduced cost with the cut terms.
// Every pricing round gives the Lagrangian bound
//
//	Σ_v λ_v + Σ_S σ_S + lagrangianTerm(lower bounds on the reduced costs)
//
// valid for any λ and σ ≤ 0 (a partition's groups hit each cut at most
// once). Each is certified (form CertSubsetRow: the cuts, their duals
// and the per-size bounds, which CheckCertificate re-proves by the same
// enumeration with the cut terms). After a converged round, Result.Duals and the bound passed to the
// gap-closing stage are those with cuts, and branch-and-price keeps the
// cuts (its nodes price with the cut terms; branch.go).
func (r *run) subsetRowPhase() error {
	res := r.res
	if r.opt.NoSubsetRowCuts || !res.Converged || r.box != nil || r.proven() || r.plan.passed(r.plan.loopEnd) {
		return nil
	}
	if r.sess.NumCols() != len(r.cs.cols) || r.sess.NumRows() != r.n {
		return fmt.Errorf("colgen: the master holds %d columns and %d rows, the pool %d columns and %d records",
			r.sess.NumCols(), r.sess.NumRows(), len(r.cs.cols), r.n)
	}
	r.src = newSRCPool()
	t0 := time.Now()
	defer func() {
		res.Stats.SubsetRowSeconds += time.Since(t0).Seconds()
		res.Cuts = len(r.src.cuts)
		res.Columns = len(r.cs.cols)
		r.plan.ended(PhaseSubsetRow)
	}()
	for round := 0; round < srcMaxRounds; round++ {
		mr, ok, err := r.solveCutMaster()
		if err != nil || !ok {
			return err
		}
		if _, integral := integralGroups(mr.X, r.cs.cols); integral {
			r.round(mr.X, mr.ReducedCosts)
			return nil
		}
		from := len(r.src.cuts)
		for _, c := range separateSRC(r.cs.cols, mr.X, srcViolation, srcMaxPerRound) {
			r.src.add(c.S)
		}
		if len(r.src.cuts) == from {
			return nil
		}
		lo, up, start, idx, vals := r.src.rowsFor(from, r.cs.cols)
		if err := r.sess.AddRows(lo, up, start, idx, vals); err != nil {
			return fmt.Errorf("colgen: adding subset-row cuts: %w", err)
		}
		res.CutRounds++
		done, err := r.repriceWithCuts()
		if err != nil || !done {
			return err
		}
	}
	return nil
}

// solveCutMaster solves the master with its cut rows; ok is false when
// the time share ended (the run is then stopped).
func (r *run) solveCutMaster() (*solvers.Result, bool, error) {
	if r.plan.passed(r.plan.loopEnd) {
		r.stop(StopTimeLimit, PhaseSubsetRow)
		return nil, false, nil
	}
	if !r.plan.loopEnd.IsZero() {
		r.masterPrm.TimeLimit = time.Until(r.plan.loopEnd)
	}
	t0 := time.Now()
	mr, err := r.sess.Solve()
	r.res.Stats.MasterSeconds += time.Since(t0).Seconds()
	r.res.Stats.MasterSolves++
	if err != nil {
		return nil, false, fmt.Errorf("colgen: master LP with subset-row cuts: %w", err)
	}
	if mr.Status == solvers.TimeLimit || (mr.Status != solvers.Optimal && r.plan.passed(r.plan.loopEnd)) {
		r.stop(StopTimeLimit, PhaseSubsetRow)
		return nil, false, nil
	}
	if mr.Status != solvers.Optimal || !mr.HasDuals {
		return nil, false, fmt.Errorf("colgen: master LP with subset-row cuts ended %v without optimal duals (engine %s)", mr.Status, r.eng.Name())
	}
	r.res.Master = mr.Objective
	return mr, true, nil
}

// cutDuals splits the master's duals into the record duals λ and the cut
// duals σ, clipped at 0 (any σ ≤ 0 gives a valid bound; the engine may
// return tiny positive values within its tolerances).
func (r *run) cutDuals(duals []float64) (lambda, sigma []float64) {
	return splitCutDuals(duals, r.n, len(r.src.cuts))
}

// splitCutDuals splits the duals of a master with n record rows and
// cuts cut rows after them into λ and σ clipped at 0 (nil without cuts).
func splitCutDuals(duals []float64, n, cuts int) (lambda, sigma []float64) {
	if cuts == 0 {
		return duals, nil
	}
	sigma = make([]float64, cuts)
	for i := range sigma {
		sigma[i] = min(0, duals[n+i])
	}
	return duals[:n], sigma
}

// repriceWithCuts is the column generation under the cuts: master solve,
// rounding, exact pricing with the cut terms, until pricing proves that
// no group has a negative reduced cost (done) or time runs out (not done;
// the run is stopped).
func (r *run) repriceWithCuts() (done bool, err error) {
	res := r.res
	defer func() { r.pr.penalty = nil }()
	for {
		mr, ok, err := r.solveCutMaster()
		if err != nil || !ok {
			return false, err
		}
		res.Iterations++
		r.round(mr.X, mr.ReducedCosts)
		lambda, sigma := r.cutDuals(mr.Duals)
		// Complete enumeration alone: the greedy ranks its groups under λ
		// alone, and the cut terms take most of them back above 0 (on EIA
		// k = 5 the rounds converged 2-3 times faster without it). The
		// penalty stays for the pricings below, until the next solve.
		r.pr.penalty, r.pr.noGreedy = r.src.penalty(sigma), true
		out, err := r.pr.price(lambda)
		r.pr.noGreedy = false
		if err != nil {
			return false, err
		}
		z := floatSum(lambda) + floatSum(sigma)
		kind := BoundLagrangian
		if out.complete {
			kind = BoundSubsetRow
		}
		bound := z + lagrangianTerm(r.n, r.k, out.lb)
		r.raise(bound, kind)
		r.certifyCuts(bound, lambda, sigma, out.lb, out.proof)
		r.report(PhaseSubsetRow, Progress{Master: mr.Objective})
		var newCols [][]int
		for _, c := range out.cols {
			newCols = r.cs.addNew(newCols, [][]int{c.Members})
		}
		if !out.complete && len(newCols) == 0 && !out.timedOut {
			// Only master columns found: new groups by complete
			// enumeration before calling the round converged.
			if newCols, out.timedOut, err = r.pr.newGroups(lambda, r.cs, newCols); err != nil {
				return false, err
			}
		}
		if !out.complete && len(newCols) == 0 {
			if out.timedOut {
				r.stop(StopTimeLimit, PhasePricing)
				return false, nil
			}
			// Pricing only re-found master columns (their reduced costs
			// are negative within the LP engine's tolerances): the
			// smallest reduced costs with the cut terms, by complete
			// enumeration, bound the LP instead (as numericalStop does
			// without cuts).
			lb, proofs, complete, err := r.pr.exactBounds(lambda)
			if err != nil {
				return false, err
			}
			bound = z + lagrangianTerm(r.n, r.k, lb)
			r.certifyCuts(bound, lambda, sigma, lb, proofs)
			if !complete {
				r.raise(bound, BoundLagrangian)
				r.stop(StopTimeLimit, PhasePricing)
				return false, nil
			}
			r.raise(bound, BoundSubsetRow)
			out.complete = true
		}
		if out.complete {
			// The gap-closing stage lists the groups within the gap under
			// these duals (closeGap with the cut terms as its penalty), taking
			// the bound for Σ λ + Σ σ: a partition's groups then have
			// reduced costs within its gap plus the slack of the others.
			res.Duals, r.lastSumLambda = slices.Clone(lambda), bound
			r.cutSigma = sigma
			return true, nil
		}
		obj, lo, up, st, rows, vals, err := r.src.columns(r.d, newCols)
		if err != nil {
			return false, err
		}
		if err := r.sess.AddCols(obj, lo, up, nil, st, rows, vals); err != nil {
			return false, fmt.Errorf("colgen: adding columns: %w", err)
		}
	}
}

// cutMinReducedCost returns min(0, the smallest reduced cost with the
// cut terms (srcPool.reducedCost) over all groups of eta records) by
// complete enumeration with the cut terms as the search's penalty
// (cutTerms): partial groups are pruned on their reduced cost under
// lambda plus the cut terms they already hit, and the cutoff falls to the
// best group found. complete is false when the deadline cut the search
// short; b is then the enumeration's bound (valid, weaker). It serves
// CheckCertificate; the run bounds by the same enumeration through
// pricer.exactBounds with the cut terms as the pricer's penalty.
func cutMinReducedCost(prep *enumerate.Prepared, src *srcPool, lambda, sigma []float64, eta, workers int,
	deadline time.Time) (b float64, complete bool, err error) {
	res, err := prep.Solve(lambda, eta, &enumerate.Options{Workers: workers, Threshold: 0, Deadline: deadline, Penalty: src.penalty(sigma)})
	if err != nil {
		return 0, false, err
	}
	return min(0, res.LowerBound), res.Complete, nil
}
