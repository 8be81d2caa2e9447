// Package hungarian solves the linear assignment problem: given an n×n
// matrix of costs c_ij, find a permutation σ minimizing Σ_i c_{iσ(i)}.
//
// # Method
//
// Solve is the shortest-augmenting-path form of the Hungarian method
// (Kuhn 1955, Munkres 1957) as organised by Jonker and Volgenant ("A
// shortest augmenting path algorithm for dense and sparse linear assignment
// problems", Computing 38 (1987) 325-340), with the lazy dual update
// described by D. F. Crouse ("On implementing 2D rectangular assignment
// algorithms", IEEE Trans. Aerospace and Electronic Systems 52(4), 2016).
// It keeps dual potentials u (rows) and v (columns) with
// reduced costs c_ij − u_i − v_j ≥ 0 on every edge and = 0 on every
// matched edge, so the partial matching is always of minimum cost for the
// rows it covers.
//
// Initialization (column reduction): v_j = min_i c_ij, u = 0, and column j
// is matched to its cheapest row when that row is still free (a tight
// edge); on dense random costs this matches about 1 − 1/e of the rows.
//
// Each free row then grows a shortest path tree in reduced costs, scanning
// columns Dijkstra-style with dist[j] (the smallest distance to column j
// found so far, the minv array of the classical description) and path[j]
// (its predecessor row): the smallest unscanned column is settled, and if
// it is matched its row is scanned next (the matched edge is tight, so the
// row is at the same distance). The search stops at the first free column
// (ties are broken towards free columns). Only the scanned rows and columns
// change their potentials (u_i += D − dist of its column, v_j −= D − dist_j,
// D the length of the path), which keeps all reduced costs non-negative and
// makes the tree edges tight; the matching is then flipped along the path.
// A search costs O(n²) in the worst case, O(n³) in all, with O(n) memory
// beyond the cost matrix.
//
// # Forbidden edges
//
// An entry +Inf is a forbidden edge. Its reduced cost is +Inf and it is
// never scanned. A column of +Inf only is reported at once. When a search
// reaches no free column (the minimum of dist over unscanned columns is
// +Inf), the rows matched so far plus the new one have no matching
// covering them all (no augmenting path, Berge's theorem), so no perfect
// matching of finite cost exists and Solve returns an error wrapping
// ErrInfeasible: a row of +Inf only, or a violation of Hall's condition.
//
// # Sparse problems
//
// SolveSparse solves the same problem on a sparse graph (compressed rows,
// Sparse): the same column reduction, potentials and path flips, but each
// search runs Dijkstra over the edges of the graph with a binary heap of
// columns (ties: free columns, then the lowest index), so a search costs
// O(m log n) at worst and usually far less; missing edges are forbidden.
// Its optimum equals Solve's on the dense matrix with +Inf for the missing
// entries (tested on random instances, feasible and not).
//
// # Input
//
// cost is row-major: cost[i*n+j] is the cost of assigning row i to column
// j. NaN, −Inf and a length other than n² are errors wrapping ErrInput;
// n = 0 gives the empty assignment with total 0. Costs may be negative.
// The total is the sum of the original costs of the chosen entries (not a
// difference of potentials, which would carry round-off). Finite costs
// should stay well below 1e300 in magnitude: a reduced cost that overflows
// to +Inf would be taken for a forbidden edge. Ties are broken
// deterministically (same input, same assignment).
//
// # Stopping
//
// SolveStop (and SolveSparse with Sparse.Stop set) calls the caller's stop
// function before every augmenting path search and gives up with an error
// wrapping ErrStopped when it reports true, so that a deadline is kept
// within one search (O(n²) dense) instead of the whole O(n³) solve.
package hungarian
