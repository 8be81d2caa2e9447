// Package colgen microaggregates numerical records by column generation,
// after Gentile, Spagnolo-Arrizabalaga & Castro ("A column generation
// approach for microaggregation"), and returns, besides a clustering, a
// proven lower bound on the optimal SSE — the one thing heuristics such as
// MDAV, V-MDAV or ICSM cannot give.
//
// # Model
//
// A feasible group is a set C of k..2k-1 records (larger groups are never
// needed); its cost is its SSE, w_C = Σ_{i<j ∈ C} c_ij / |C| with c_ij the
// squared Euclidean distance (Equation (8), from Proposition 3.1). The
// microaggregation problem is the set partitioning (9): choose groups
// covering every record once at least total cost. Its LP relaxation over a
// subset of the groups is the restricted master problem (package lp,
// MasterProblem), held in one incremental engine session: new columns are
// appended and the LP is re-solved warm from the previous basis.
//
// # Pricing (Section 5.1)
//
// With the master's row duals λ, a group of size η has reduced cost
// Σ_{i<j ∈ C} c_ij/η − Σ_{v∈C} λ_v (Equation (10)). For η = k..2k-1, in
// order, the pricing tries the greedy SolveHeuristicPricing (several
// disjoint columns), and when that finds none an exact method — complete
// enumeration (package native/enumerate) or the edge-only ILP (14)
// (package ip, SolveExactPricing) — chosen by the paper's Table 2 rule
// (Table2) unless Options.Exact says otherwise; it stops at the first size
// that yields columns. When every size has been priced exactly without a
// negative reduced cost, the master LP value is a lower bound on the
// optimal SSE.
//
// # Bounds during the run
//
// Every iteration also yields a Lagrangian bound: any partition x has
// SSE(x) = Σ_v λ_v + Σ_C rc_C·x_C, and with lower bounds on the smallest
// reduced cost per size (the exact minimum where the size was priced
// exactly, otherwise the cheap bound enumerate.RootBound) the second sum is
// bounded below over the partitions' size profiles (Σ η·y_η = n,
// Σ y_η ≤ ⌊n/k⌋). The best of these bounds is returned when a time limit
// stops the run before convergence.
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
// # Result
//
// Result carries the best clustering and its SSE, the lower bound, the gap
// of formula (15), the best SSE of MDAV, V-MDAV, SRH and MSTH, whether the
// run converged, whether the last master solution was integral, Exact when
// the gap is closed (the clustering is optimal), and where the time went.
package colgen
