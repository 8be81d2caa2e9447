// Package mincostflow selects a minimum-cost b-regular bipartite graph: given
// an n×n matrix of costs c_ij (+Inf = forbidden), choose for every row
// exactly b columns and every column exactly b times, minimizing the sum of
// the chosen costs. For b = 1 this is the assignment problem (package
// native/hungarian); for b = k it gives the k-regular generalization graphs
// of freeform k-anonymity (package kanon).
//
// # Network
//
// Source s → row i (capacity b), row i → column j (capacity 1, cost c_ij,
// for every finite c_ij), column j → sink t (capacity b). A b-regular
// selection is an integral flow of value n·b; the edges row → column carry
// one unit each, so a row chooses distinct columns.
//
// # Successive shortest paths
//
// After a start that places most units at once (below), KRegular sends
// the remaining units one at a time. Each unit follows a shortest path in the residual graph from
// the row to a column that still has spare capacity: forward edges
// row → column not chosen (cost c_ij), backward edges column → row for
// chosen ones (cost −c_ij). A flow is of minimum cost for its supplies iff
// its residual graph has no negative cycle; augmenting along a shortest path
// keeps this (Ford-Fulkerson; Busacker and Gowen 1961; Ahuja, Magnanti and
// Orlin, "Network Flows", Section 9.7), so the last flow is optimal. The
// paths to s and t need not be searched: the shortest path to t ends at
// the first spare column reached, and at the end every edge at s and t is
// saturated, so cycles through them cannot exist.
//
// Potentials π (rows pr, columns pc) keep the reduced costs
// c_ij + pr_i − pc_j (forward) and −c_ij + pc_j − pr_i (backward)
// non-negative, so each search is Dijkstra's algorithm; after a search that
// reaches its spare column at distance D, every settled node's potential
// grows by dist − D (the usual π + min(dist, D), shifted by the constant
// D), which makes the path edges tight. Negative costs are allowed.
//
// # Start and searches
//
// The start is a column reduction that generalizes the Hungarian one
// (pr = 0): column j takes its cheapest rows in ascending cost order while
// they have fewer than b columns, at most b, stopping at the first full
// row, and pc_j is the cheapest cost of column j not taken (of the last
// taken if all its finite entries are). Every forward reduced cost is then
// ≥ 0 and every backward one pc_j − c_ij ≥ 0 as well (taken entries cost
// at most pc_j), so this partial selection is of minimum cost for its own row
// supplies; on dense random costs it places about 70% of the n·b units.
// The remaining units are sent round robin over the rows (in round r every
// row that has fewer than r columns gains one).
//
// Dijkstra runs on the dense graph with arrays, no heap: scanning a row
// relaxes its forward edges and finds the smallest tentative column in the
// same pass; rows get tentative distances only from settled columns (their
// backward edges) and wait in a short list; the next node is the smaller of
// the two. When a full column is settled and one of its rows is at the same
// distance (a tight backward edge, the common case), that row is next
// without another pass over the columns. A search settles at most 2n nodes
// and each settled row relaxes n edges, so a unit costs O(n²) and the whole
// selection O(b·n³) in the worst case; in practice a search stops early at
// the nearest spare column (ties are broken towards spare columns).
//
// # Infeasibility
//
// A row or column with fewer than b finite costs is rejected at once. If a
// search reaches no spare column, the current flow plus one unit at the row
// is infeasible (the difference of two flows decomposes into paths and
// cycles, and a path from the row to t would be an augmenting path), so no
// b-regular selection of finite cost exists: the error wraps
// ErrInfeasible. Malformed input (NaN, −Inf, len(cost) ≠ n², b outside
// [0, n]) wraps ErrInput.
package mincostflow
