// Package frechet computes closed-form cell bounds for a contingency table
// whose released marginals have a decomposable or reducible structure,
// following Section 3 of A. Dobra and S. E. Fienberg, "Bounds for cell
// entries in contingency tables induced by fixed marginal totals with
// applications to disclosure limitation" (Theorems 1 and 2), which rests on
// Dobra and Fienberg, PNAS 97 (2000) 11885-11892.
//
// # Independence graph
//
// The vertices are the variables of the table; two variables are adjacent
// when they appear together in some released marginal (Graph). The released
// marginals, after dropping duplicates and marginals contained in another,
// are the minimal sufficient statistics of a decomposable log-linear model
// exactly when the graph is chordal and they are its maximal cliques
// (Decomposable). Chordality alone is not enough: the two-way margins [AB]
// [AC] [BC] give the triangle, chordal, whose clique [ABC] is not released
// (the no-three-way-interaction model is not graphical).
//
// Chordality is tested by maximum cardinality search (Tarjan and Yannakakis
// 1984): visit next the vertex with most visited neighbours; the graph is
// chordal iff, for every vertex, its neighbours visited before it are
// pairwise adjacent (the reverse visit order is then a perfect elimination
// ordering). The maximal cliques are the sets {v} ∪ (neighbours of v visited
// before v) that are maximal; ordered by the visit position of v they form
// a perfect sequence C1..Cm: each Si = Ci ∩ (C1 ∪ ... ∪ Ci-1) lies in one
// earlier clique (running intersection property), giving a junction tree
// (JunctionTree). Separators are counted with multiplicity; an empty
// separator joins two connected components.
//
// # Theorem 1 (decomposable margins)
//
// For a full-table cell x with cliques C and separators S of a perfect
// sequence (Bounds):
//
//	upper(x) = min_C n_C(x_C)
//	lower(x) = max(0, Σ_C n_C(x_C) − Σ_S n_S(x_S))
//
// where n_S is obtained by collapsing the clique marginal that contains S.
// Why it is sharp: glue the cliques one at a time. Given the marginal n_S of
// a separator, the tables on the two sides of S vary independently, and for
// each separator cell x_S the full cells form a two-way transportation
// problem with row sums from one side and column sums from the other, whose
// integer Fréchet bounds are min(a, b) and max(0, a + b − n_S). Nesting the
// max(0, ·) of successive steps equals the flat formula because a side's
// lower bound never exceeds n_S(x_S). Integer tables exist for any pairwise
// consistent decomposable margins (the same gluing builds one), so Bounds
// checks consistency (model.MarginSet.Check) and nothing else.
//
// Variables in no released marginal ("free" variables, isolated and
// uncovered in the graph) are allowed. Their one-way margins are unknown,
// not released: a feasible table for the covered variables may split each of
// its cells over the levels of the free variables in any way. So the upper
// bound of a full cell is the bound of its covered cell (put every unit on
// this level) and the lower bound is 0 (move every unit to another level),
// except when every free variable has a single level, when the full cell is
// its covered cell. This is Theorem 1 with each free variable as a clique
// of its own whose margin is unknown (worst case 0 for the lower bound),
// and it is sharp. When only the grand total is released (the empty
// marginal) every cell lies in [0, N] (or [N, N] for a one-cell table).
//
// MarginalBounds gives sharp bounds for the cells of a marginal over a
// subset A of the variables. A variable v outside A that is simplicial
// (its neighbours pairwise adjacent) lies in a single clique C; summing it
// out replaces C by C − v and leaves the set of attainable tables over the
// other variables unchanged, since for each cell of C − v splitting a table
// over v with the given totals is again a transportation problem with an
// integer solution. The remaining margins stay decomposable, and removing a
// simplicial vertex keeps the others simplicial, so removing them greedily
// reaches A whenever any order does; then Theorem 1 applies to the
// collapsed marginals. Otherwise (e.g. [AC] of the chain [AB] [BC]) it
// returns ErrNotCollapsible.
//
// # Theorem 2 (reducible margins)
//
// A graph decomposes along a complete separator S when removing S
// disconnects it. Every released marginal is complete, so it lies on one
// side (with S) and never straddles S: the constraints split into those on
// D ∪ S and those on the rest. If the marginal n_S is known, the two sides
// are independent given n_S and the argument of Theorem 1 gives, for
// components K and separators S of the decomposition (Reducible),
//
//	upper(x) = min_K upper_K(x_K)
//	lower(x) = max(0, Σ_K lower_K(x_K) − Σ_S n_S(x_S))
//
// sharp whenever the component bounds are sharp (the paper's claim; the
// package tests check it by enumerating every integer table of tiny tables).
// A complete separator need not lie inside a released marginal: [AB] [AC]
// [BC] [AD] [BD] [CD] [AE] [BE] [CE] has two 4-cliques meeting in the
// triangle ABC, but n_ABC is unknown, the sides are not independent, and the
// formula has no n_ABC to subtract. Such separators are not used.
//
// Decompose therefore splits only on separators that are subsets of a
// released marginal (which makes them complete with a known marginal). It
// tries the candidate subsets smallest first; a candidate s splits a piece
// W when W − s has at least two full components (components whose
// neighbourhood in W is all of s: s is a minimal separator of W), and W is
// replaced by D1 ∪ s and W − D1 for the first full component D1,
// recursively. A complete s lies within a single piece of each part, and
// joining those two pieces by an edge labelled s keeps the running
// intersection property, so the pieces form a tree; they are listed in a
// perfect sequence that starts with the piece holding the first released
// marginal and grows by the neighbouring piece holding the earliest one. If
// every clique minimal separator were allowed this would be the
// decomposition into atoms by clique minimal separators (Leimer 1993,
// "Optimal decomposition by clique separators", the paper's reference
// [15]); the restriction to known separators can leave unions of atoms.
// Each component's margin set holds the released marginals inside it plus
// the marginal of each adjacent separator not implied by them; a released
// marginal that only meets a component lies, by the running intersection
// property, in a separator adjacent to it, so nothing else is known about
// the component. A component that is itself a released marginal is known
// exactly; Reducible calls the component solver on the others.
//
// On the paper's example (Czech autoworkers, 1841 men): [BF] [ABCE] [ADE]
// is decomposable with separators [B] and [AE] (the paper's text also names
// [BC] a separator; F is adjacent to B only, and the separator the formula
// uses is [B]), and Bounds reproduces every cell of the paper's Table 2. The
// Section 5 margins [BF] [BC] [BE] [AB] [AC] [AE] [CE] [DE] [AD] are not
// graphical, hence not decomposable, and reduce to the same components;
// combining the paper's Tables 3 and 4 by Theorem 2 reproduces its Table 5.
//
// # Limits
//
// At most MaxVars (64) variables; separator candidates come from released
// marginals of at most 24 variables. Bounds and Reducible visit every cell of
// the full table once (about 60-80 ns a cell). A component solver returning
// LP (possibly fractional) bounds gives valid combined bounds, sharp only
// when its own are.
//
// The chordality test, junction tree and component search work on 64-bit
// vertex sets: gonum's graph packages have no chordality test or perfect
// elimination ordering, and their clique and component routines were
// 14-200x slower on these graphs; the tests use gonum's topo.BronKerbosch
// as an independent check of the maximal cliques.
package frechet
