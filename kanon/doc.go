// Package kanon builds k-anonymous freeform generalizations (Doka et al.,
// "k-Anonymization by Freeform Generalization", Sections 5-8): every
// published record T_j is the box
// (numeric [min, max], categorical set of values or, with a hierarchy,
// lowest common ancestor) of the originals S_i matched to it, and the
// bipartite graph of matches is k-regular and contains the identity
// (S_j–T_j), so an adversary who knows the algorithm links no record with
// probability above 1/k. The quality is the GCP (model.QITable.GCP): the
// mean NCP over records and quasi-identifiers, in [0, 1],
//
//	GCP = Σ_j Σ_a NCP_a(box_j) / (n·d).
//
// Anonymize is the entry point; the publication helpers write and check
// what is released:
//
//	q, err := datasets.LoadQI("people.csv", []string{"age", "zip"}, []string{"zip"}, false)
//	res, err := kanon.Anonymize(q.Table, 5, &kanon.Options{Method: kanon.MethodSortGreedy, Seed: 1})
//	a, err := roles.New(q.Header, roles.List{Role: roles.QuasiIdentifier, Columns: []string{"age", "zip"}})
//	err = kanon.WritePublished(pubFile, q, res, a.Published())  // release this
//	err = kanon.WriteGraph(graphFile, q, res)    // keep this: it links records
//	pub, _ := kanon.ReadPublished(pubFile2, "published.csv", q)
//	edges, _ := kanon.ReadGraph(graphFile2, "graph.csv")
//	v, err := kanon.VerifyPublication(q, pub, edges, 5, &res.GCP, "published.csv", "graph.csv")
//
// Only the mip method needs an engine (package solvers' registry).
//
// # The k-round framework (greedy, sortgreedy, hungarian)
//
// Round 1 matches every S_i to its own T_i. Each later round adds one
// perfect matching on unused edges ((S_i, T_j) is unused while i is not in
// Matched[j]), with weights w_ij = model.QITable.Increase(box_j, i) — the
// increase of T_j's NCP sum if S_i joins it — recomputed from the current
// boxes between rounds. After k rounds the graph is k-regular. The
// weights are tabulated per round (per published record and categorical
// attribute, the increase for every code), which gives values identical to
// Increase (same operations in the same order) at a fraction of its cost.
//
//   - greedy (Section 5): the originals are scanned in lexicographic order
//     of their quasi-identifier tuples (numeric by value, categorical by
//     code, attributes in table order, ties by index); each takes the
//     lightest T_j that is free in this round and unused for it (ties:
//     lowest j). O(n²d) per round, O(n) extra memory.
//   - sortgreedy (Section 6, Algorithm 2): all unused edges sorted by
//     weight (float32-rounded weight, then edge index; two-pass radix
//     sort) are scanned once and taken when both ends are free. O(n²) per
//     round, two n² uint64 arrays.
//   - hungarian (Section 7): an exact minimum-weight perfect matching per
//     round (native/hungarian, O(n³); used edges +Inf). Still a heuristic
//     for the whole problem: it optimizes round by round.
//
// Dead ends. In greedy an original may find every free T_j already
// adjacent to it; in sortgreedy originals may be left unmatched after the
// pass. Both are resolved by the backtracking of Section 5: an S_y matched
// in this round to a T_j that is unused for S_i hands T_j to S_i and takes
// a free T_m unused for it. Here every such swap is considered and the
// one of least weight change w_ij + w_ym − w_yj is applied (ties: S_y
// nearest to S_i in the lexicographic order, then lowest j, m) — the paper
// takes the first one found. The paper proves that a swap exists for k
// well below n/2; when none exists (tiny n, k near n) the round is
// completed by a shortest augmenting path over unused edges (Kuhn's
// method), which always exists because after r rounds the unused edges
// form an (n−r)-regular bipartite graph, which has a perfect matching. So
// every round completes for every 1 <= k <= n.
//
// # flow
//
// The off-the-shelf baseline of Section 8 ("minCostFlow"): a
// (k−1)-regular bipartite graph on the off-diagonal edges minimizing the
// sum of the pairwise distances dist(i, j) = NCP sum of the box of records
// i and j (not GCP), by native/mincostflow.KRegular (successive shortest
// paths); the identity round is added.
//
// # mip
//
// The exact GCP-optimal k-regular graph containing the identity, by
// ip.SolveKAnonMIP (Options.MIPSolver). Options.TimeLimit is one deadline
// for the run: each partition's engine gets the time left, and a
// partition whose engine has not returned a grace period (1 s + 5 % of
// the limit) after the deadline is solved by the hungarian heuristic
// instead (Result.Fallbacks; the engines check their limit only between
// steps, and HiGHS was measured 30-240 s late on 27 Adult records).
// Result.MIPBound is the record-weighted mean of the partitions' bounds (a
// lower bound on the optimal GCP of the partitioned problem) and
// Result.MIPOptimal says every partition was proved optimal. Small
// partitions only (the model has n(n−1) binaries).
//
// # Partitioning (Section 8.1)
//
// With Options.Partition = P > 0 the records are split into partitions
// that are solved independently, Options.Workers at a time, with the
// quasi-identifier ranges and cardinalities of the whole table (so NCPs
// are global); their graphs are put together in global record indices:
// no edge leaves its partition. By default (Options.Split = SplitMedian)
// the split is MedianPartitions: Mondrian's median rule with minimum part
// size ⌈P/2⌉, so partitions hold P/2 to P records close in every
// quasi-identifier (on Adult this halves the GCP of the paper's
// lexicographic blocks at the same P). SplitLex is the paper's scheme
// (Partitions): consecutive blocks of P records of the lexicographic
// order, a last block of fewer than k merged into the previous one. P < k
// is an error. The dense methods accept partitions of at most MaxDense
// records.
//
// By default (Options.Partition = 0) AutoPartition chooses P, as sdcopt
// kanon does without --partition (OnePartition asks for one partition of
// all records; mip and mondrian always use one): the
// largest size of a ladder (100 to 20,000, or all records) whose running
// time predicted by PredictSeconds — a cost model per method measured on
// Adult — fits Options.Budget (DefaultBudget = 30 s) on the workers,
// within memory caps for the dense matrices. Result.Partition reports it.
//
// # Deadline
//
// A Budget that is set is a deadline for the run (the MIP's is
// TimeLimit, see above). greedy, sortgreedy and hungarian check it inside
// a partition too: every 16 originals of a greedy round, every 16 columns
// of sortgreedy's and the dense hungarian's weights, every 16 rows of the
// sparse hungarian's pools and candidates, and before every augmenting
// path search of native/hungarian (SolveStop, Sparse.Stop). A partition
// running at the deadline drops its rounds; it and the partitions that
// start after the deadline get the quick fallback graph (FallbackQuick:
// Mondrian's median splits of the partition into parts of k to 2k-1
// records, each part the circulant graph of its lexicographic order,
// O(n log² n)), k-regular like the others, so the result is verified the
// same way. Result.Fallbacks, FallbackRecords and FallbackParts (which
// partition, its records, interrupted or not started) report them. flow
// checks the deadline only between partitions.
//
// # Sparse hungarian
//
// hungarian on a partition of more than SparseMin records (or with
// Options.Assign = AssignSparse) solves each round on a candidate graph:
// every original's Options.Candidates (DefaultCandidates(k) = 16 + k/2)
// lightest unused edges under the current weights, and every published
// record's as many, both taken among the Options.Pool (DefaultPool(k) =
// max(400, 8k+64))
// records nearest in QI space (computed once per partition). The round is
// solved exactly on that graph by native/hungarian.SolveSparse; when the
// graph has no perfect matching, the greedy round (which always
// completes) supplies one whose edges join the graph, and the round is
// solved again (Result.Repairs counts these). When the candidate graph
// contains the dense optimum of the round, the sparse optimum equals it.
//
// # Mondrian
//
// MethodMondrian is the baseline of LeFevre, DeWitt and Ramakrishnan
// (ICDE 2006): strict multidimensional partitioning into classes of at
// least k records by median splits (see Mondrian for the split rule),
// each record published with the box of its class. Its graph is the
// complete bipartite graph of every class (degree = class size), which
// model.GenGraph.CheckAnonymous, Verify and VerifyPublication accept
// (every component k-regular or complete on at least k records), so the
// publication files and the GCP are those of the freeform methods.
// Result.Classes is the number of classes; the assignment is a seeded
// uniformly random permutation within each class.
//
// # Assignment extraction and publishing
//
// Extract decomposes the k-regular graph into k perfect matchings
// (the package's own Hopcroft-Karp: gonum has no bipartite matching; on the
// remaining, still regular, graph, after a seeded
// shuffle of the adjacency lists) and returns one drawn uniformly with the
// seed: Result.Assignment[j] is the original whose non-quasi-identifier
// attributes are published with box j. Result.PublishOrder is a seeded
// permutation in which the published records are listed. The result
// depends on the table, k, the options and the seed only, never on
// Options.Workers or scheduling.
//
// Verify checks a published generalization from scratch: degrees, the
// identity round, every edge's original inside its box and the reported
// GCP. CheckResult does so for a Result before it is written.
//
// # Publication files
//
// The published file (WritePublished) has the published columns in the
// input's order (the quasi-identifiers and the columns the caller
// publishes unchanged, package roles; its header names them), one row per
// published record in the seeded publish order: a numeric box is "[lo-hi]" (one value when
// lo = hi), a categorical one "{a|b|c}" in category order (one value
// without braces), with a hierarchy the name of the node. The graph file
// (WriteGraph) has the header "original,published,own,assigned" and one
// line per edge: the 1-based data row of the input, the 1-based row of the
// published file, 1 on the identity-round edge and 1 on the edge whose
// original's other cells the published row carries. The graph links
// published and original records: it is for the data holder's audit,
// never for release. ReadPublished and ReadGraph parse both back (a
// leading UTF-8 byte-order mark is skipped), and VerifyPublication checks
// everything against the data: degrees, the identity and assignment
// edges, containment, the carried cells and the GCP.
//
// # Errors
//
// Anonymize wraps ErrK (k outside 1..n), ErrMethod, ErrPartition (also a
// partition size given for Mondrian) and ErrTooLarge (a partition beyond
// MaxDense for a dense method); an unknown Assign or Split, a negative
// Candidates, Pool, TimeLimit or Budget are errors too; an invalid
// table and, for mip, the errors of package ip (a solve without any
// feasible point) are returned too. Files that do not parse wrap
// ErrFormat; files that parse but are not a valid k-anonymous publication
// of the data wrap ErrInvalid; both name the file and line or row.
package kanon
