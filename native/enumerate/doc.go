// Package enumerate solves the fixed-size pricing subproblem of the column
// generation for microaggregation exactly, by complete enumeration with
// bounds: the SolveCompleteEnumeration routine of Section 5.1 of Gentile,
// Spagnolo-Arrizabalaga and Castro (the paper enumerates every group of
// size η with nested loops; here the loops are pruned by a lower bound, so
// the answer is the same).
//
// # Problem
//
// Given squared distances c_ij, duals λ and a size η, find the groups C of
// exactly η records with the smallest reduced cost
//
//	rc(C) = Σ_{i<j∈C} c_ij/η − Σ_{v∈C} λ_v
//
// below a threshold (problem (14) of the paper, solved combinatorially).
//
// # Bound
//
// For a record v let s_v^(q) be the sum of its q smallest distances to the
// other records. Since Σ_{i<j∈R} c_ij = ½ Σ_{v∈R} Σ_{j∈R∖v} c_vj, every set
// R of r records has Σ_{i<j∈R} c_ij ≥ ½ Σ_{v∈R} s_v^(r−1). At the root
// this gives RootBound: rc(C) ≥ sum of the η smallest
// t_v = s_v^(η−1)/(2η) − λ_v. In the search, a partial group S (|S| = m,
// r = η − m records still to choose among the candidates J, the records
// after the last chosen one) is completed by R ⊆ J with
//
//	rc(S ∪ R) = rc(S) + Σ_{j∈R} inc_j + Σ_{i<j∈R} c_ij/η
//	          ≥ rc(S) + Σ_{j∈R} g_j,   inc_j = Σ_{u∈S} c_uj/η − λ_j,
//	                                   g_j = inc_j + s_j^(r−1)/(2η),
//
// so rc(S) + (sum of the r smallest g_j) bounds the subtree; a candidate j
// whose g_j plus the r−1 smallest other g exceeds the cutoff is removed from
// the candidate lists of the whole subtree; the children are visited in
// order and the loop stops once the r smallest g among the remaining
// candidates exceed the cutoff. inc is updated in O(|J|) per extension.
//
// # Order, parallelism and determinism
//
// Records are renumbered by ascending t_v (most promising first). A group
// whose first (smallest) position is a has rc ≥ first[a] = t_a + (sum of the
// η−1 smallest t after a); with this order first[a] increases with a, so
// the subtrees of late records are skipped at once. The subtree of each
// first position is a task, taken dynamically by the workers; the cutoff
// (the MaxColumns-th best reduced cost found, Threshold until then) is
// shared atomically. Pruning requires a bound above the cutoff by a small
// slack (1e-10 times the magnitude of the data), so rounding never discards
// a group tied with the cutoff; every group offered is evaluated with
// model.SqDist.ReducedCost on its sorted members and ranked by (reduced
// cost, members), so a complete search returns the same Columns whatever
// the number of workers or the timing. When the deadline passes, the
// groups not yet examined all lie in the tasks from the smallest unfinished
// one on, and LowerBound is the smaller of the best found (or Threshold)
// and their first[a].
//
// # Cost
//
// Each call costs O(n²) to renumber the distance matrix plus O(|J|) per
// search node; memory is O(n²) per concurrent call (recycled between
// calls) and O(n·MaxEta) per worker. On LP-optimal duals of the master
// problem (the last column-generation iteration, where the search proves
// that no group has negative reduced cost) the bound is strong: on census
// subsets it visits a few hundred to a few thousand nodes, about 0.05 ms
// (n = 100, η = 3..5), 0.1-0.2 ms (n = 100, η = 6..9; n = 200, η = 3..5) and
// 0.6-1 ms (n = 200, η = 6..9) on one core; see bench_test.go.
//
// # Reuse
//
// Prepare computes the nearest-distance sums once per distance matrix;
// Prepared.Solve and Prepared.RootBound then price any duals and size up to
// the prepared maximum. Solve and RootBound of a model.PricingInstance wrap
// them.
package enumerate
