// Package microagg partitions standardized numerical microdata into groups
// of at least k records (microaggregation heuristics and the optimal
// univariate method). Every method returns a model.Clustering; the
// measures (SSE, SST, IL) and the protected data set are in package model.
// No engine is needed; for a proven lower bound on the optimal SSE see
// package colgen.
//
//	z, _ := model.Standardize(raw)
//	c, err := microagg.MDAV(z, 3)                           // or VMDAV, Projection, ...
//	res, err := microagg.ICSM(z, 3, microagg.ICSMOptions{}) // improves MDAV
//	il := model.IL(z, res.Clustering)                       // 100·SSE/SST
//	prot := model.Protect(raw, res.Clustering)              // centroids, original units
//
// Run selects a method by name (Methods: mdav, vmdav, univariate,
// projection, icsm), as the CLI does.
//
// With z_1..z_n the records (z-scored: see model.Standardize), a
// k-partition minimizes
//
//	SSE = Σ_groups Σ_{i ∈ g} ||z_i - mean_g(z)||²,   every |g| >= k,
//
// which is NP-hard for d > 1; an optimal partition never needs groups of
// 2k records or more (split them). Distances are squared Euclidean.
//
// # MDAV
//
// Maximum Distance to Average Vector (Domingo-Ferrer & Mateo-Sanz 2002;
// Domingo-Ferrer & Torra 2005), exactly the variant verified against the
// published CASC values in ../shared/datasets/README.md, section 2: while
// at least 3k records remain, c = centroid of the remaining records, r =
// the record farthest from c, s = the record farthest from r; r and its
// k-1 nearest remaining records form a group and are removed, then s and
// its k-1 nearest. With 2k..3k-1 records left, r (farthest from their
// centroid) and its k-1 nearest form a group and the rest the last one;
// with k..2k-1 left they form one group. Ties go to the lowest record
// index. (s is taken as the farthest from r among the records left after
// r's group is removed: the same record, unless ties put it in r's group.)
//
// Implementation (O(n²d/k) time, O(nd) memory): the remaining records are
// kept compact (a removed record is replaced by the last one, so a pass
// reads only the rows that remain, contiguously); the k-1 nearest are
// selected with a bounded heap, not a sort; the distance loop processes
// four records per centre load (four independent sums, added in the same
// order as for one record) and stops early once their partial sums all
// exceed the k-1-th nearest distance (exact: the partial sum of
// non-negative terms is a lower bound of the rounded full sum). The
// farthest record from the centroid is found without a full pass most of
// the time: the centroid moves little between steps, so the 256 records
// farthest from the centroid c0 of the last full pass are kept; with
// δ = ||c - c0|| and B the distance to c0 of the farthest record not in
// the list, a listed record farther than B + δ from c (with a relative
// margin of 1e-9 for rounding) is provably the farthest. Passes over more
// than 20,000 records run on two goroutines. The nearest/farthest passes
// are cut into chunks of 2048 records that the two goroutines claim in
// turn (so neither waits for a late start of the other); each keeps its
// own nearest set and farthest record, merged by (distance, index), a
// total order, so the result does not depend on which goroutine saw which
// record. The centroid passes, which also sum the rows, use two halves
// fixed by the pool size. Results are identical to a sequential run.
//
// # V-MDAV
//
// Variable-size MDAV (Solanas & Martínez-Ballesté, "V-MDAV: a multivariate
// microaggregation with variable group size", COMPSTAT 2006), as
// implemented here:
//
//  1. c = centroid of the whole data set (computed once).
//  2. While at least k records are unassigned: e = the unassigned record
//     farthest from c; e and its k-1 nearest unassigned records form a
//     group G. Extension, while |G| < 2k-1 and records are unassigned:
//     e_min = the unassigned record nearest to G (its distance d_in is
//     the least distance to a member of G); d_out = the distance from
//     e_min to its nearest other unassigned record (+∞ if none); if
//     d_in < γ·d_out (Euclidean, not squared, distances) e_min joins G,
//     else the extension stops.
//  3. The fewer than k records left each join the group whose centroid
//     is nearest (so those groups may exceed 2k-1 records).
//
// γ >= 0 is the extension parameter; γ = 0 gives fixed groups of k;
// DefaultGamma = 0.2 is the value suggested for scattered data, about 1.1
// for clustered data. Ties go to the lowest record index (and group
// number). The paper precomputes the n x n distance matrix; here distances
// are computed on the fly (O(n) memory), which costs O(n²d) time.
//
// # Optimal univariate microaggregation and ordered data
//
// Hansen & Mukherjee ("A polynomial algorithm for optimal univariate
// microaggregation", IEEE TKDE 15(4), 2003): on one attribute an optimal
// partition consists of groups of k..2k-1 consecutive sorted values, so
// it is a shortest path from node 0 to node n over the sorted positions,
// with an arc i -> j (k <= j-i <= 2k-1) weighted by the SSE of the
// records i..j-1. PartitionSequence solves this shortest path for any
// order of any records (for d > 1 it is the best partition into
// consecutive groups along that order, as used on projections and on the
// tours of the local-search method), in O(n·k·d) time: for each end j the
// 2k-1 segments ending there are grown backwards one record at a time
// with Welford's mean and sum-of-squares update. That has the cost of the
// prefix-sum formula (segment SSE = Σ||x||² - ||Σx||²/m) without its
// cancellation: over 10^6 records the prefix sums grow to ~10^7 and the
// difference of two of them loses about seven digits of a small segment's
// SSE.
//
// # Projection
//
// The projection heuristic orders the records by their score on the first
// principal component (the eigenvector of the largest eigenvalue of the
// d x d scatter matrix, from gonum's symmetric eigendecomposition, its
// largest-magnitude entry made positive; the attribute of largest variance
// when the scatter matrix is zero) and partitions that order with
// PartitionSequence: O(n·d² + d³ + n log n + n·k·d) time.
//
// # ICSM local search
//
// ICSM (Mortazavi & Jalili, "A Novel Local Search Method for
// Microaggregation", ISeCure 7(1), 2015, Section 4: Algorithm 2 with
// SimpleHeuristic, ComplexHeuristic and Tour2Assignment, Algorithms 3-5)
// improves a clustering (MDAV by default) by repairing violations of two
// necessary conditions of an optimum: no exchange of two records between groups and
// no migration of a record to another group (sizes kept in k..2k-1)
// lowers the SSE. With a(x,q) = ||x - c_q||², b(y) = ||y - c_group(y)||²
// and m_q = |G_q| the moves are edges of a graph H on records and groups:
//
//	R1(x, G_q, y) = a(x,q) - b(y) - ||x-y||²/m_q   x replaces y in G_q (Eq. 3)
//	R2(x, G_q)    = m_q/(m_q+1)·a(x,q)             x joins G_q, m_q < 2k-1 (Eq. 5)
//	R3(G_p, x)    = -m_p/(m_p-1)·b(x)              x leaves G_p, m_p > k (Eq. 6)
//
// each the exact SSE change of the one group it touches; an exchange is
// R1+R1 and a migration R2+R3 (2-cycles), longer negative cycles that
// visit every group at most once are n-opt moves. One run repeats
//
//   - the tour (Section 4.2, MDAV-MHM style: from the group of the record
//     farthest from the data centroid, nearest point next inside a group,
//     then the open group with the record nearest to the end of the tour)
//     and Tour2Assignment (Algorithm 5): the optimal partition of the tour
//     read as a cycle into runs of k..2k-1, the best of the 2k-1 rotations
//     of the Hansen-Mukherjee shortest path; the run SSEs are shared by
//     all rotations (O(n·k·d) once, then O(n·k) per rotation). The
//     clustering is one such partition, so this never raises the SSE; it
//     is taken only when it lowers it.
//   - SimpleHeuristic (Algorithm 3): all negative 2-cycles; the best
//     p_n = 100 are applied greedily when they touch groups not touched
//     yet. Only the best move per pair of groups is kept (two moves on one
//     pair can never both apply). The pair weights depend on the two
//     groups only, so the best moves are cached per pair with the groups'
//     content versions and only pairs with a changed group are evaluated
//     again; a pair is also skipped when a bound from the centroid
//     distance L and the radii r shows no move can gain (exchange gain >=
//     (L-r_p)²₊ + (L-r_q)²₊ - r_p² - r_q² - (L+r_p+r_q)²·(1/m_p+1/m_q)).
//     The evaluation is spread over the workers by group.
//   - until neither changes the clustering; then ComplexHeuristic
//     (Algorithm 4): Score of Eq. 7 for every group (in closed form:
//     summed over y ∈ G_q, R1(x, G_q, y) = (m_q-1)·a(x,q) -
//     SSE_q·(1+1/m_q), so O(n·c·d)); G_s = the least Score; groups ranked
//     by centroid distance from G_s; H' keeps the edges from lower to
//     higher rank (Eq. 8), a DAG, so the shortest paths from the records
//     of G_s and the node G_s to all nodes take one pass in rank order
//     (all sources at once, the levels spread over the workers); each path
//     closed by its edge back to the source is a valid cycle (ranks
//     increase, so no group is visited twice) and its weight is the exact
//     SSE change; the most negative one is applied. Back to the inner
//     loop.
//
// The paper stops when ComplexHeuristic finds nothing. Here, beyond the
// paper (ICSMOptions.Neighbourhood, on by default; -1 gives the paper's
// algorithm), a neighbourhood sweep follows: every group in turn is the
// source of the same search on the subgraph of H' spanned by its 32
// nearest groups, and every negative cycle found is applied (searches
// run two at a time on the workers; a cycle is applied only if its groups
// did not change meanwhile; a source is searched again only when a group
// of its neighbourhood changed since its last empty search). The search
// stops when the sweep applies nothing. This is what brings every
// published single-run case (Table 2: Tarragona, Census, EIA) to or below
// the published value; the paper's algorithm alone stays above on
// Census k = 3 (4.88 vs 4.85) and k = 10 (12.11 vs 11.93) and Tarragona
// k = 10 (30.71 vs 30.70).
//
// MAX_ITERATIONS counts improving rounds (an inner-loop pass that changed
// the clustering, or an applied ComplexHeuristic or sweep). A time limit
// is checked between steps and inside the O(n²) passes; the best valid
// clustering so far is returned. Restarts (Section 5.3) shuffle the group
// labels of 20 random records of the initial clustering (sizes kept) with
// a seeded generator. Every applied step lowers the SSE by more than
// 1e-10; SSEs of changed groups are recomputed from their members (no
// drift), and the Check mode compares the maintained SSE with a
// from-scratch recomputation and the predicted change after every step.
// The result does not depend on the number of workers.
//
// # Errors
//
// Data-dependent failures return errors wrapping the exported sentinels:
// ErrEmpty (no records), ErrNoAttributes, ErrNonFinite (NaN or ±Inf),
// ErrK (k < 2 or k > n), ErrTooLarge (more than 2^31-1 records), ErrGamma,
// ErrNotUnivariate, ErrMethod (Run), ErrInit (an unknown
// ICSMOptions.Init or an invalid ICSMOptions.Initial) and ErrICSMCheck
// (ICSMOptions.Check found a bug). ICSM's time limit is not an error: it
// returns the best clustering so far (ICSMStats.StoppedByTime).
// Programmer errors (a nil data set, a malformed order) panic. Constant
// attributes are allowed: after model.Standardize they are 0 and add
// nothing to any distance.
package microagg
