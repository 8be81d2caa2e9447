package colgen

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/native/enumerate"
	"github.com/sdcopt/sdcopt/solvers"
)

// The region bound: the per-record bound with integrality inside a region.
//
// For any duals λ and any clustering P, Σ_{C∈P} w_C = Σ_v λ_v + Σ_{C∈P} rc_C.
// Take a set R of records (the region). The groups of P that hold a record
// outside R ("crossing" groups) cost at least the shares of their members,
// rc_C ≥ Σ_{v∈C} μ'_v with
//
//	μ'_v = min(0, min over the groups C ∋ v with a record outside R of rc_C/|C|);
//
// the groups of P inside R form a packing Q of R. So
//
//	SSE(P) ≥ Σ_v (λ_v + μ'_v) + min over packings Q of R of Σ_{C∈Q} rc'_C,
//	rc'_C = w_C − Σ_{v∈C} (λ_v + μ'_v),
//
// a bound for every clustering, hence on the optimum. The packing's minimum
// is an integer program over the groups inside R of negative rc' (listed
// completely by enumeration on R's records, at the shifted duals λ + μ').
// Any lower bound on it keeps the whole valid: its LP relaxation with
// subset-row cuts (packingCuts), whose duals prove the bound without an
// engine (regionLPBound, the certificate), or the MIP engine's BestBound on
// the program (packingBound). Outside R, and for the records of R covered
// by crossing groups, this is the per-record bound (μ' = μ for records
// outside R); inside, the program knows that the records of R must be
// covered by whole groups.
//
// Why: at k = 10 the master never converges in ten minutes and the bound
// is the ascent's per-record bound, whose gap on EIA sits in a few groups
// of outlying records: at the ascent's best duals of a 600 s run (bound
// 824.60, the incumbent 873.10), 33 of the 48.5 SSE of the gap lie in the
// 10 incumbent groups of largest deficit (SSE − Σ (λ + μ) over their
// members), 12 of them holding 139 records; those 139 records alone have a
// master LP bound of 541.56 and an optimum of 564.51 (proven by this
// package in 56 s): the gap is the integrality of the outliers, which no
// dual of the LP closes. The region bound at the same duals, R the 312
// records of the groups of deficit above 0.3: 838.21 (4.0 % gap), in
// 13.7 s by CBC on the program (bench/README.md, "The region bound").
//
// The region is built from the incumbent's groups in decreasing order of
// their deficit at λ, estimated from the shares of the hint groups (the
// groups that attained the shares of the ascent's last exact evaluation),
// until it holds regionRecords records.

// regionRecords is the first region's size target (records; regionPhase
// doubles it while the time lasts): at the best duals of EIA k = 10 in
// 600 s (the per-record bound 823.13), 300 records gave 836.64 in 15 s and
// 607 records 844.20 in 48 s (CBC; HiGHS took 172 s on its 35,463
// groups; bench/README.md).
const regionRecords = 300

// regionMaxRecords is the largest region regionPhase tries (eight times
// regionRecords): on EIA at k = 10 in 600 s the regions of 300, 600 and
// 1,213 records gave 1.8587, 1.8745 and 1.8797 IL, the last 31 s after
// the first began, with 20 s of the share left (bench/README.md).
const regionMaxRecords = 8 * regionRecords

// regionMaxGroups caps the groups listed inside the region (per size); a
// region with more groups of negative rc' gives no bound.
const regionMaxGroups = 200000

// regionShare is the share of Options.TimeLimit kept at the end of the
// master loop for the region bound when the loop has no bound of its own
// (a twelfth: 50 s at 600 s, where the ascent's last 50 s raise its bound
// by about 0.002 IL on EIA at k = 10, and the region of 600 records 0.017
// IL above that of 300 records in 48 s), and regionMinLimit the shortest
// limit for which it is kept (a shorter run's ascent is far from its best
// duals, and the evaluation of the shares costs 13 s on EIA at k = 10).
const (
	regionShare    = 12
	regionMinLimit = 300 * time.Second
)

// regionIPMin is the least time left after the regions for which the
// packing program runs on the best one (packingBound).
const regionIPMin = 5 * time.Second

// regionOutcome is what regionBound did: the bound (−Inf when none), the
// region's records, the groups inside it of negative rc' and a status.
type regionOutcome struct {
	bound   float64
	records int
	groups  int
	status  string
	// The certificate (CertRegion): the region, the duals y ≥ 0 of its
	// records and the cuts (records by position in the data) with their
	// duals σ ≤ 0, from the packing's LP relaxation with subset-row cuts.
	region []int
	y      []float64
	cuts   [][3]int
	sigma  []float64
	// The packing program for packingBound: its groups (members in
	// 0..len(region)−1), its cuts, and Σ (λ + μ') with the magnitude of
	// its terms.
	cols      []model.Column
	pool      *srcPool
	base, mag float64
}

// regionBound computes the region bound at duals lambda (see above), the
// region chosen from the incumbent's groups (incumbent) with the help of
// hints, its packing's LP relaxation with subset-row cuts solved by the LP
// engine lpEng, before deadline (zero: none). The bound is the
// certificate's (regionLPBound); packingBound can raise it afterwards.
func regionBound(d *model.SqDist, prep *enumerate.Prepared, k int, lambda []float64, hints, incumbent [][]int,
	size, workers int, lpEng string, deadline time.Time) regionOutcome {
	out := regionOutcome{bound: math.Inf(-1)}
	region := pickRegion(d, k, lambda, hints, incumbent, size)
	if len(region) < k {
		out.status = "no region: no incumbent group with a deficit"
		return out
	}
	out.records = len(region)
	// The shares get half of the time: cut short, they are lower bounds
	// on μ' (MinShares), which keep the bound valid.
	shareDeadline := deadline
	if !deadline.IsZero() {
		shareDeadline = time.Now().Add(time.Until(deadline) / 2)
	}
	sh, err := crossingShares(prep, k, lambda, region, &enumerate.SharesOptions{Workers: workers, Deadline: shareDeadline, Hints: hints})
	if err != nil {
		out.status = "shares: " + err.Error()
		return out
	}
	cut := ""
	if !sh.Exact {
		cut = " (the shares cut short by their half of the time: their lower bounds)"
	}
	base, mag := sharesSum(lambda, sh.Share)
	// The groups inside R of negative rc', by enumeration on R's records
	// at the shifted duals.
	m := len(region)
	shifted := make([]float64, m)
	for a, v := range region {
		shifted[a] = lambda[v] + sh.Share[v]
	}
	sp, err := regionPrepared(d, k, region)
	if err != nil {
		out.status = "region: " + err.Error()
		return out
	}
	var cols []model.Column
	for eta := k; eta <= 2*k-1 && eta <= m; eta++ {
		res, err := sp.Solve(shifted, eta, &enumerate.Options{Workers: workers, All: true, Threshold: 0, MaxColumns: regionMaxGroups, Deadline: deadline})
		if err != nil {
			out.status = "region enumeration: " + err.Error()
			return out
		}
		if !res.Complete {
			out.status = "region enumeration cut short (deadline or more groups than the cap)"
			return out
		}
		for _, c := range res.Columns {
			slices.Sort(c.Members) // srcPool.each reads groups ascending
		}
		cols = append(cols, res.Columns...)
	}
	out.groups = len(cols)
	// The packing's LP relaxation with subset-row cuts: its duals prove
	// the bound (regionLPBound, the certificate's own computation).
	y, pool, sigma, rounds := make([]float64, m), newSRCPool(), []float64(nil), 0
	if len(cols) > 0 {
		if y, pool, sigma, rounds = packingCuts(m, cols, lpEng, deadline); y == nil {
			out.status = "packing LP: no optimal solve" + cut
			return out
		}
	}
	b, ok := regionLPBound(sp, k, lambda, sh.Share, region, y, pool, sigma, workers, deadline)
	if !ok {
		out.status = "the bound's enumeration cut short by the deadline" + cut
		return out
	}
	out.bound, out.region, out.y, out.sigma = b, region, y, sigma
	for _, c := range pool.cuts[:len(sigma)] {
		out.cuts = append(out.cuts, [3]int{region[c[0]], region[c[1]], region[c[2]]})
	}
	out.cols, out.pool, out.base, out.mag = cols, pool, base, mag
	out.status = fmt.Sprintf("packing LP with %d subset-row cuts (%d rounds)%s", len(sigma), rounds, cut)
	if len(cols) == 0 {
		out.status = "no group inside the region beats its shares" + cut
	}
	return out
}

// packingCuts solves the LP relaxation of the packing program over cols
// (members in 0..m−1, ascending) by the LP engine eng in rounds: after
// each solve, the subset-row cuts of three records that its solution
// violates (separateSRC; at most srcMaxPerRound a round) are added as
// rows Σ_{C holds two of S} x_C ≤ 1, valid for every packing, until none
// is violated, srcMaxRounds rounds or the deadline. It returns the duals
// of the last optimal solve: y ≥ 0 per record, the pool of cuts and σ ≤ 0
// for its first len(sigma) cuts (those of that solve), and the rounds;
// y is nil when no solve was optimal.
//
// On EIA at k = 10 (the region of 602 records and 66,569 groups of a 600 s
// run) the LP alone gives 1.84050 IL; three rounds of 2,839 cuts raise it
// to 1.87666 IL in 5.6 s (CLP), above CBC's bound on the packing
// program after its whole share (1.87128; bench/README.md).
func packingCuts(m int, cols []model.Column, eng string, deadline time.Time) (y []float64, pool *srcPool, sigma []float64, rounds int) {
	pool = newSRCPool()
	s, err := solvers.New(eng, false)
	if err != nil {
		return nil, pool, nil, 0
	}
	prm := &solvers.Params{Deadline: deadline, HardStop: true}
	p := packingProblem(m, cols, nil, solvers.Continuous)
	var sess solvers.Session
	if s.Capabilities().Incremental {
		sess, err = s.NewSession(p, prm)
	} else {
		sess, err = solvers.NewReloadSession(s, p, prm)
	}
	if err != nil {
		return nil, pool, nil, 0
	}
	defer sess.Close()
	members := make([][]int, len(cols))
	for j, c := range cols {
		members[j] = c.Members
	}
	for rounds = 0; ; rounds++ {
		res, err := sess.Solve()
		if err != nil || res.Status != solvers.Optimal || !res.HasDuals {
			return y, pool, sigma, rounds
		}
		// A ≤ row of a minimization has a dual ≤ 0 (d = c − Aᵀy).
		y = make([]float64, m)
		for v := range y {
			y[v] = max(0, -res.Duals[v])
		}
		_, sigma = splitCutDuals(res.Duals, m, len(pool.cuts))
		if rounds == srcMaxRounds || (!deadline.IsZero() && !time.Now().Before(deadline)) {
			return y, pool, sigma, rounds
		}
		from := len(pool.cuts)
		for _, c := range separateSRC(members, res.X, srcViolation, srcMaxPerRound) {
			pool.add(c.S)
		}
		if len(pool.cuts) == from {
			return y, pool, sigma, rounds
		}
		lo, up, start, idx, vals := pool.rowsFor(from, members)
		if err := sess.AddRows(lo, up, start, idx, vals); err != nil {
			return y, pool, sigma, rounds
		}
	}
}

// regionLPBound is the bound of a CertRegion certificate: for the region
// (records ascending; sp the enumeration prepared on its records,
// regionPrepared), the shares mu over the groups crossing it (or lower
// bounds on them), any y ≥ 0 (one per record of the region) and any
// subset-row cuts of region records (pool, records numbered within the
// region; nil: none) with duals σ ≤ 0 (sigma, one per cut of the pool
// from the first),
//
//	Σ_v (λ_v + μ_v) − Σ_{v∈R} y_v + Σ_S σ_S + ⌊|R|/k⌋ · min(0, min over
//	the groups C inside R of w_C − Σ_{v∈C} (λ_v + μ_v − y_v) − Σ_S σ_S h_SC),
//
// h_SC = 1 when C holds two or more records of S; the minimum by complete
// enumeration on R's records with the cut terms as its penalty (ok is
// false when the deadline cut it short). It never exceeds the region bound
// with the same shares: a packing Q of R covers each record of R at most
// once and, its groups being disjoint, holds at most one group with two
// records of any S, so Σ_{C∈Q} rc'_C ≥ Σ_{C∈Q} rc*_C − Σ_{v∈R} y_v +
// Σ_S σ_S with rc* the reduced cost above, and Q has at most ⌊|R|/k⌋
// groups. With the duals of the packing's LP relaxation with these cuts,
// no group has rc* < 0 and the bound is Σ (λ + μ) plus that LP's value.
func regionLPBound(sp *enumerate.Prepared, k int, lambda, mu []float64, region []int, y []float64, pool *srcPool, sigma []float64,
	workers int, deadline time.Time) (float64, bool) {
	m := len(region)
	base, mag := sharesSum(lambda, mu)
	shifted := make([]float64, m)
	for a, v := range region {
		shifted[a] = lambda[v] + mu[v] - y[a]
		base -= y[a]
		mag += math.Abs(y[a])
	}
	for _, sg := range sigma {
		base += sg
		mag += math.Abs(sg)
	}
	low := 0.0
	for eta := k; eta <= 2*k-1 && eta <= m; eta++ {
		res, err := sp.Solve(shifted, eta, &enumerate.Options{Workers: workers, Threshold: 0, Deadline: deadline, Penalty: pool.penalty(sigma)})
		if err != nil || !res.Complete {
			return 0, false
		}
		low = min(low, res.LowerBound)
	}
	mag += math.Abs(low) * float64(m/k)
	return base + float64(m/k)*low - sharesSlack*mag, true
}

// regionPrepared is the enumeration prepared on the region's records (the
// distances among them, record a of the region numbered a), for group
// sizes up to 2k−1.
func regionPrepared(d *model.SqDist, k int, region []int) (*enumerate.Prepared, error) {
	m := len(region)
	sub := &model.SqDist{N: m, D: make([]float64, m*m)}
	for a, v := range region {
		for b, u := range region {
			sub.D[a*m+b] = d.At(v, u)
		}
	}
	return enumerate.Prepare(sub, min(2*k-1, m))
}

// crossingShares is MinShares of the group sizes k..2k−1 over the groups
// with a record outside the region (records ascending): the shares μ'
// of the region bound. opts (not nil) sets the workers, deadline and
// hints; its Accept is replaced.
func crossingShares(prep *enumerate.Prepared, k int, lambda []float64, region []int, opts *enumerate.SharesOptions) (*enumerate.Shares, error) {
	inR := make([]bool, len(lambda))
	for _, v := range region {
		inR[v] = true
	}
	o := *opts
	o.Accept = func(m []int) bool { return slices.ContainsFunc(m, func(u int) bool { return !inR[u] }) }
	return prep.MinShares(lambda, k, min(2*k-1, len(lambda)), &o)
}

// packingProblem is min Σ_C rc'_C x_C over the columns cols (members in
// 0..m−1, ascending), every record in at most one chosen group, and the
// cuts of pool (nil: none) as rows Σ_{C holds two of S} x_C ≤ 1 after the
// m record rows; x of type t ≥ 0, at most 1 for an integer x (the rows
// imply it; without the bound an LP's duals sit on the rows alone, which
// packingCuts needs).
func packingProblem(m int, cols []model.Column, pool *srcPool, t solvers.VarType) *solvers.Problem {
	p := &solvers.Problem{}
	rows := m
	if pool != nil {
		rows += len(pool.cuts)
	}
	for range rows {
		p.AddRow(math.Inf(-1), 1, "")
	}
	up := 1.0
	if t == solvers.Continuous {
		up = math.Inf(1)
	}
	var idx []int
	var ones []float64
	for _, c := range cols {
		idx = append(idx[:0], c.Members...)
		if pool != nil {
			pool.each(c.Members, func(i int) { idx = append(idx, m+i) })
		}
		for len(ones) < len(idx) {
			ones = append(ones, 1)
		}
		p.AddCol(c.ReducedCost, 0, up, t, idx, ones[:len(idx)], "")
	}
	return p
}

// pickRegion returns the records of the incumbent's groups of largest
// deficit w_C − Σ_{v∈C} (λ_v + μ̂_v), μ̂_v the smallest share of v among
// the hint groups at lambda (an upper estimate of μ_v), in decreasing
// order of the deficit until size records; groups without a positive
// deficit are left out. The records come ascending.
func pickRegion(d *model.SqDist, k int, lambda []float64, hints, incumbent [][]int, size int) []int {
	mu := make([]float64, d.N)
	for _, h := range hints {
		if len(h) < k || len(h) > 2*k-1 {
			continue
		}
		s := d.ReducedCost(lambda, h) / float64(len(h))
		for _, v := range h {
			mu[v] = min(mu[v], s)
		}
	}
	type scored struct {
		g       int
		deficit float64
	}
	gs := make([]scored, 0, len(incumbent))
	for g, c := range incumbent {
		def := d.GroupCost(c)
		for _, v := range c {
			def -= lambda[v] + mu[v]
		}
		if def > 0 {
			gs = append(gs, scored{g, def})
		}
	}
	slices.SortStableFunc(gs, func(a, b scored) int { return cmp.Compare(b.deficit, a.deficit) })
	var region []int
	for _, s := range gs {
		if len(region) >= size {
			break
		}
		region = append(region, incumbent[s.g]...)
	}
	slices.Sort(region)
	return region
}

// packingBound is a proven lower bound on min Σ_C rc'_C x_C over packings
// (every record of 0..m−1 in at most one chosen group) by the MIP engine
// eng, with the cuts of pool as rows (valid for every packing): the
// engine's BestBound; NaN with a status when it has none.
func packingBound(m int, cols []model.Column, pool *srcPool, eng string, deadline time.Time) (float64, string) {
	s, err := solvers.New(eng, true)
	if err != nil {
		return math.NaN(), "no MIP engine: " + err.Error()
	}
	p := packingProblem(m, cols, pool, solvers.Integer)
	res, err := s.Solve(p, &solvers.Params{Deadline: deadline, HardStop: true, MIPRelGap: 1e-9})
	if err != nil {
		return math.NaN(), "packing program: " + err.Error()
	}
	if math.IsNaN(res.BestBound) || math.IsInf(res.BestBound, 0) {
		return math.NaN(), "packing program: no bound (" + res.Status.String() + ")"
	}
	return res.BestBound, "packing program over the region's groups: " + res.Status.String()
}

// regionOn: the run will compute the region bound after its master loop
// (regionPhase): the loop has no bound of its own, the ascent on
// exactShares runs, and a time limit of at least regionMinLimit is set
// (the bound's time comes out of the master loop's).
func (r *run) regionOn() bool {
	return !r.opt.NoRegionBound && r.n >= 2*r.k && r.asc != nil && r.asc.ex != nil && r.noMasterBound() &&
		r.opt.TimeLimit >= regionMinLimit
}

// regionStart is when the master loop ends to leave the region bound its
// share (a regionShare-th of the limit before loopEnd); zero when the
// bound is not computed.
func (r *run) regionStart() time.Time {
	if r.plan.loopEnd.IsZero() || !r.regionOn() {
		return time.Time{}
	}
	return r.plan.loopEnd.Add(-r.opt.TimeLimit / regionShare)
}

// loopDeadline is the master loop's deadline: regionStart when the region
// bound gets its share, loopEnd otherwise.
func (r *run) loopDeadline() time.Time {
	if rs := r.regionStart(); !rs.IsZero() {
		return rs
	}
	return r.plan.loopEnd
}

// regionDue: the master loop has reached regionStart.
func (r *run) regionDue() bool {
	rs := r.regionStart()
	return !rs.IsZero() && !r.plan.clock().Before(rs)
}

// regionPhase computes the region bound at the ascent's best duals after
// a master loop without a bound of its own, until loopEnd, and raises the
// lower bound with it (BoundRegion). The packing program's bound is the
// engine's; the certificate states its LP relaxation (CertRegion) when
// that beats the ascent's.
func (r *run) regionPhase() {
	res := r.res
	if !r.regionOn() || r.best == nil || r.best.groups == nil {
		return
	}
	// Its share from now: the loop's last step may have run past
	// regionStart (an evaluation or an engine that checks its clock
	// late); the polish then gets less.
	deadline := r.plan.clock().Add(r.opt.TimeLimit / regionShare)
	if r.plan.loopEnd.After(deadline) {
		deadline = r.plan.loopEnd
	}
	if r.plan.end.Before(deadline) {
		deadline = r.plan.end
	}
	t0 := time.Now()
	lpEng := r.res.LPSolver
	if lpEng == "" {
		lpEng = pickEngine(r.opt.LPSolver, "clp", "highs", "lpsolve")
	}
	// Regions of regionRecords, then twice as many records up to
	// regionMaxRecords, while the time lasts and each one gave a bound;
	// the best counts.
	var best regionOutcome
	for size := regionRecords; size <= regionMaxRecords && !r.plan.passed(deadline); size *= 2 {
		out := regionBound(r.d, r.prep, r.k, r.asc.best, r.asc.ex.hints, r.best.groups, size, r.opt.Workers, lpEng, deadline)
		if math.IsInf(out.bound, -1) || out.bound <= res.RegionBound {
			// No bound, or none better than a smaller region's.
			what := out.status
			if !math.IsInf(out.bound, -1) {
				what = fmt.Sprintf("%s, bound %.6g", out.status, out.bound)
			}
			if res.RegionStatus == "" {
				res.RegionRecords, res.RegionGroups, res.RegionStatus = out.records, out.groups, what
			} else {
				res.RegionStatus += fmt.Sprintf("; a region of %d records: %s", out.records, what)
			}
			break
		}
		best = out
		res.RegionRecords, res.RegionGroups, res.RegionStatus, res.RegionBound = out.records, out.groups, out.status, out.bound
		r.raise(out.bound, BoundRegionLP)
		if c := r.certify(out.bound, CertRegion, r.asc.best, nil, nil); c != nil {
			c.Region, c.RegionDuals, c.Cuts, c.CutDuals = out.region, out.y, out.cuts, out.sigma
		}
		if out.records < size {
			break // no larger region to take
		}
	}
	// The time left goes to the packing program itself on the best
	// region, its cuts as rows, when that region's bound is the run's
	// (else the program would have to raise it past the ascent's: on
	// Census at k = 10 a region with its shares cut short proved 4.26 IL,
	// the ascent 11.14); its bound is the MIP engine's and not certified.
	if len(best.cols) > 0 && res.BoundKind == BoundRegionLP && time.Until(deadline) >= regionIPMin {
		eng := pickEngine(r.opt.MIPSolver, "cbc", "lpsolve", "highs")
		ip, status := packingBound(len(best.region), best.cols, best.pool, eng, deadline)
		if !math.IsNaN(ip) {
			ip = min(ip, 0)
			b := best.base + ip - sharesSlack*(best.mag+math.Abs(ip))
			status = fmt.Sprintf("%s, bound %.6g", status, b)
			// Only a real gain replaces the certified bound (the two
			// differ in their rounding slack alone when the LP with its
			// cuts is integral).
			if b > res.RegionBound+certTol*math.Max(1, math.Abs(b)) {
				res.RegionBound = b
				r.raise(b, BoundRegion)
			}
		}
		res.RegionStatus += "; " + status
	}
	res.Stats.RegionSeconds = time.Since(t0).Seconds()
	r.plan.ended(PhaseMaster)
}
