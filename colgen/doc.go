// Package colgen microaggregates numerical records by column generation,
// after Gentile, Spagnolo-Arrizabalaga & Castro ("A column generation
// approach for microaggregation"), and returns, besides a clustering, a
// proven lower bound on the optimal SSE — the one thing heuristics such as
// MDAV, V-MDAV or ICSM cannot give.
//
//	z, _ := model.Standardize(raw)
//	res, err := colgen.Run(z, 3, &colgen.Options{TimeLimit: time.Minute})
//	// res.Clustering, res.SSE, res.LowerBound, res.GapPercent, res.Exact
//
// Run needs an LP engine with incremental sessions and duals for the
// master and a MIP engine for the pricing ILP and the gap-closing stage,
// both from the registry of package solvers: import
// github.com/sdcopt/sdcopt/solvers/all (or the backends wanted) for its
// side effect.
//
// # Model (Sections 3 and 4.1)
//
// A feasible group is a set C of k..2k-1 records (larger groups are never
// needed); its cost is its SSE, w_C = Σ_{i<j ∈ C} c_ij / |C| with c_ij the
// squared Euclidean distance (Equation (8), from Proposition 3.1). The
// microaggregation problem is the set partitioning (9):
//
//	minimize Σ_C w_C x_C   subject to Σ_{C ∋ v} x_C = 1 (every record v),  x_C ∈ {0, 1}.
//
// Its LP relaxation over a subset of the groups is the restricted master
// problem (package lp, MasterProblem), held in one incremental engine
// session: new columns are appended and the LP is re-solved warm from the
// previous basis. The run starts from the groups of MDAV and V-MDAV (and
// of Options.Initial), as MicroaggregationHeuristicMP does (Section 5.2),
// and, beyond the paper, of an ICSM run (microagg.ICSM from MDAV, the
// default `--method icsm` run; Options.NoICSM turns it off), so that the
// result is never worse than ICSM's when that run fits its time box.
//
// # Pricing (Sections 4.2 and 5.1)
//
// With the master's row duals λ, a group of size η has reduced cost
// Σ_{i<j ∈ C} c_ij/η − Σ_{v∈C} λ_v (Equation (10)). For η = k..2k-1, in
// order, the pricing (PricingProblem of Section 5.1) tries the greedy
// SolveHeuristicPricing (several disjoint columns), and when that finds
// none an exact method: complete enumeration (package native/enumerate)
// by default (Options.Exact = ExactCE), the edge-only ILP (14) of Section
// 4.2 (package ip, SolveExactPricing; ExactEP), or the paper's choice
// between the two by its Table 2 (Table2; ExactTable2). The paper sends
// sizes ≥ 7 to the ILP; here enumeration with bounds proves those sizes
// far faster, hence the default. The pricing stops at the first size that
// yields columns. When every size has been priced exactly without a
// negative reduced cost (below a tolerance of 1e-8 relative to the largest
// dual), the master LP value is a lower bound on the optimal SSE
// (Result.Converged).
//
// # Bounds during the run
//
// A bound holds from the start: nearestBound, Σ_v min_η s_v(η−1)/(2η)
// with s_v(q) the sum of v's q smallest distances, and recordBound with
// λ = 0 (Result.BoundKind says which bound is reported). Every iteration
// also yields a Lagrangian bound: any partition x has
// SSE(x) = Σ_v λ_v + Σ_C rc_C·x_C, and with lower bounds on the smallest
// reduced cost per size (the exact minimum where the size was priced
// exactly, otherwise the cheap bound enumerate.RootBound) the second sum is
// bounded below over the partitions' size profiles (Σ η·y_η = n,
// Σ y_η ≤ ⌊n/k⌋); and recordBound shares each group's reduced cost among
// its members and bounds each record's share from sorted distances, which
// needs no finished pricing. The best of these bounds is returned when a
// time limit stops the run before convergence; every phase (ICSM start,
// master solves, pricing, closing stage, branch-and-price, ICSM polish)
// works against the one deadline, and Result.StoppedPhase names the phase
// a limit stopped. The deadline is shared once, when the run starts
// (timePlan): the ICSM polish keeps a tenth of the limit, and
// Result.PolishNote says when an earlier phase overran into it. A master
// loop without a bound of its own by its last 15 % hands that tail to the
// polish, up to a polish of 12 s (polishMinBox; so only under a 120 s
// limit; not with NoShareAscent, Options.Ascent or NoICSM): the IL of such
// a run comes from the polish alone, whose restarts improve it only when
// one finishes inside the box (Tarragona
// k = 10 at 60 s: the 6th restart, 3-6 s into the polish on an idle
// machine), and the ascent's last steps there add little to the bound.
// Options.Progress observes every phase (name, best valid bound,
// incumbent, gap) without influencing any of them.
//
// At large k the restricted master is stuck at the integral vertex of its
// start (Census k = 10: its value never moves in a minute) and its duals
// give no bound. By default (Options.NoShareAscent turns it off) a
// subgradient ascent from the nearest-neighbour duals then raises the
// per-record bound with exact shares (exactShares, BoundShares): each
// record v gets μ_v = min(0, min_{C∋v} rc_C/|C|) exactly, a bound
// Σ_v (λ_v + μ_v) whose maximum over λ is the LP bound (λ + μ is dual
// feasible). A branch and bound per record (enumerate.Prepared.MinShares)
// finds the μ_v without listing the groups of negative reduced cost: its
// cutoff is the record's best share so far, which every group found
// lowers for all its members, and a record whose shares are bounded
// above that cutoff leaves the other records' candidates. (Listing every
// such group by complete enumeration, the first method, overflowed its
// 20,000 groups per size after small steps on Tarragona and EIA k = 10,
// and the ascent stalled.) The ascent opens with a scaling phase
// (scaleStep): the bound at the nearest-neighbour duals times a factor
// raised from 1, a bracketing of its maximum on that ray (Tarragona
// k = 10: 19.2 → 26.7 IL at the factor 1.4, every share still 0). Then
// it steps along D·g, D the nearest-neighbour duals relative to their
// mean, g the supergradient: one minus each record's coverage by the
// groups attaining the μ_v; Polyak's step aims at the incumbent, its
// factor doubling after shareAscentGrow rises in a row, each step capped
// at shareStepCap times the incumbent's mean SSE per record (a cap that
// halves and doubles with the factor, at most that). The
// ascent takes turns with the master once its value has not moved for
// shareStallIters solves since the first (its share of the time growing
// with the stall, up to shareRatio), keeps that share after the master's
// value moves for as long as its own bound rises (sharePaysRatio; time
// limits only), gives the master the loop back when it stops rising
// until half of the loop's time, and stops before the loop's last 15 %,
// which goes to the ICSM polish when the master still has no bound (see above; with
// NoICSM the ascent takes it); when an iteration limit stops the
// loop it takes ascentFinalSteps steps. Census k = 10: 7.3363 →
// 8.59-9.09 (IL) in 60 s, 9.99 in 600 s (bench/README.md) before the
// scaling phase and the branch and bound per record; with them 10.29 in
// 60 s (Tarragona k = 10: 19.27 → 27.41, EIA k = 10: 1.27 → 1.53).
//
// In the ascent's tail its steps go to the share model (sharemodel.go;
// Options.NoShareModel keeps them subgradient steps): every group an
// evaluation found is a cut μ_v ≤ rc_C/|C| for each of its members v, and
// the LP engine maximizes Σ_v (λ_v + s_v) under those cuts in a box of
// half-width δ around the best duals (a bundle method with one model per
// record, stabilized as in BoxStep). The bound is then evaluated exactly
// at the model's duals; a rise moves the best point (and δ doubles when
// the rise was at least half the model's promise), otherwise the new cuts
// refine the model (δ halves after two such steps). Each stall of the
// ascent (its factor θ shrinks) gives the model shareModelGrant steps, and
// a model step that rises keeps its turn: the subgradient steps climb
// faster at first, the model in the tail, where the ascent stalls more
// often. On small instances the model alone reaches the LP bound
// (TestShareModelReachesLPBound), which the subgradient steps only
// approach.
//
// With Options.Ascent, when the master loop reaches the last 15 % of its
// time (or its iteration limit) with no bound from the master's own duals
// (large k), a subgradient ascent on the per-record bound, started from the
// nearest-neighbour duals, raises the bound: the per-record bound is
// concave in λ, its subgradient is one minus each record's coverage by
// the records' cheapest stars, and Polyak's step aims at the incumbent's
// SSE (stabilize.go; BoundSubgradient). It is off by default: its gain is
// small (Census k = 10: +0.3 %, Tarragona k = 10: +3 % in 60 s) and its
// time kept Census k = 4 from converging in 60 s (bench/README.md).
// Options.Smoothing turns on Wentges' dual smoothing: the greedy pricing
// runs first at α·π̂ + (1−α)·π_out, π̂ the duals of the best bound so far,
// and the master's duals are priced only on a mis-pricing (no gain on
// Census k = 10). Options.Stabilize = StabilizeBox replaces the master by
// a box-stabilized one (box.go; du Merle, Villeneuve, Desrosiers &
// Hansen): the master's duals are kept within δ of a stability centre,
// the duals of the best bound so far, by two columns per record; the
// box master's duals are evaluated by exactShares (the reported bound),
// the groups found there join the master, the centre moves when that
// bound beats the centre's, and δ grows and shrinks with the steps. Once
// the centre stalls, the ascent on exactShares takes every other turn and
// shares its centre and groups. When no group prices out negatively and the box is not
// binding, the box master's value is the LP bound (Result.Converged). It
// is off by default: on the k = 10 cases in 60 s it bounded about as the
// ascent alone (bench/README.md).
//
// The greedy pricing runs the sizes k..2k-1 on Options.Workers
// goroutines with the same result as one, and looks at the deadline every
// 16 start records. When the groups a pricing found are all master
// columns (their reduced costs negative within the LP engine's
// tolerances), complete enumeration looks for the best groups that are
// not, size after size, before the master, a cut round or a
// branch-and-price node is called converged.
//
// Result.BoundKind and Result.BoundSeconds say which bound was returned
// and when it was reached; Result.Trace holds the bound and the
// incumbent whenever either improved. Result.Certificate states the best
// bound that needs no LP engine to check — the duals, and per group size
// a lower bound on the reduced cost with its proof (root bound, complete
// enumeration, pricing ILP), and with subset-row cuts the cuts and their
// duals — and CheckCertificate recomputes it from the data alone.
//
// # Rounding (Section 5.2)
//
// After each master solve, an integral solution is a clustering; otherwise
// SimpleRoundingHeuristic and RoundingMSTHeuristic (both completed by
// AddRemainingNodes) round the fractional solution, and the best clustering
// π* is kept. Deviations from the paper, all documented at their code:
// RoundingMSTHeuristic also tries the cap max_cl = k; the groups of the
// rounded clusterings are added to the master as columns
// (Options.NoRoundedColumns turns this off); the greedy pricing picks the
// record of smallest exact reduced-cost increase.
//
// # Closing the gap (beyond the paper)
//
// After convergence with a gap between π* and the master bound z = Σ_v λ_v,
// every partition at least as good as π* uses only groups whose reduced
// cost is at most SSE(π*) − z. Run first solves the set-partitioning
// integer program over the master's own columns, then enumerates every
// group within the gap (complete enumeration) and solves the integer
// program over them, whose optimum is the optimal SSE (Result.Closed).
// When more than Options.CloseColumns (DefaultCloseColumns) groups
// qualify, it lists those below a smaller threshold t instead: a
// partition with a group not listed has SSE ≥ z + t, so the program's
// optimum v over the list is optimal when v ≤ z + t, and min(v, z + t)
// is a bound otherwise; v, a new incumbent, narrows the gap, and the next
// round lists up to four times more groups (at most a million), until
// the proof or the stage's deadline. With subset-row cuts in the master
// the cuts are rows of these programs. The stage's time is
// Options.CloseTimeLimit; by default the longer of DefaultCloseTimeLimit
// and half the loop's time left (all of it when no branch-and-price
// follows). Options.NoClose turns it off.
//
// # Subset-row cuts (beyond the paper)
//
// By default (Options.NoSubsetRowCuts turns it off), between
// convergence and the gap-closing stage, Run adds rounds of violated subset-row cuts of three records,
// Σ_{C: |C∩S| ≥ 2} x_C ≤ 1 (Jepsen, Petersen, Spoorendonk & Pisinger,
// Operations Research 56(2), 2008), to the master, each followed by
// column generation whose exact pricing accounts for the cut duals (see
// subsetrow.go). They cut off the LP's cover of a few close records by
// overlapping groups: four records covered by their four triples at ⅓
// each cost 2/9 of their pair-distance sum, the group of four 1/4. The
// bound (BoundSubsetRow) is certified (CertSubsetRow: the cuts, their
// duals and the per-size bounds with the cut terms). Complete enumeration
// takes the cut terms as its penalty (enumerate.Options.Penalty): they
// never decrease as records join a group, so partial groups are pruned on
// the cuts they already hit. Branch-and-price keeps the cuts in every
// node's master and prices with their terms.
//
// # Branch-and-price (beyond the paper)
//
// When a gap remains, Run branches on record pairs (Ryan & Foster:
// together / apart) with one column pool for all nodes and pricing by
// complete enumeration under the node's constraints; see branch.go. A
// closed tree proves the incumbent optimal (Result.Exact, Result.Nodes).
// Options.NoBranch turns it off.
//
// # Incumbent
//
// Groups of 2k or more records are split (optimally up to 13 records)
// before any clustering competes for the incumbent, and at the end ICSM
// polishes the best clustering of the master's phases.
//
// # Result and errors
//
// Result carries the best clustering and its SSE, the lower bound, the gap
// of formula (15) (GapPercent = 100·(SSE − bound)/SSE), the best SSE of
// MDAV, V-MDAV, SRH and MSTH, whether the run converged, whether the last
// master solution was integral, Exact when the gap is closed (the
// clustering is optimal), and where the time went (Stats). A time or
// iteration limit is not an error: Result.Stopped says why the run ended,
// and the clustering and bound are the best proven so far. Unusable input
// (k < 2, fewer than k records, a distance matrix beyond the memory limit,
// a bad Options value or initial clustering) wraps ErrInput; engine
// failures are returned as the solvers package's errors.
package colgen
