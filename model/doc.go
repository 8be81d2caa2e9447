// Package model holds sdcopt's problem types and their measures, free of
// any solver: numerical microdata and clusterings (microaggregation),
// contingency tables and marginals (cell bounds), quasi-identifier tables
// and generalization graphs (k-anonymity), and the distance data of the
// column-generation model. Algorithms live elsewhere (microagg, colgen,
// cellbounds, kanon and the native and formulation packages); they take
// and return these types.
//
// # Microdata and information loss
//
// Microaggregation (Domingo-Ferrer & Mateo-Sanz 2002; the conventions of
// the CASC benchmark literature): records are z-scored per attribute
// (Standardize: z_ij = (x_ij − Mean_j)/SD_j with the population standard
// deviation; a constant attribute becomes 0), partitioned into groups of
// at least k records (a Clustering), and every record is replaced by its
// group centroid (Protect, in original units). With z_i the standardized
// records,
//
//	SSE = Σ_groups Σ_{i ∈ g} ||z_i - mean_g(z)||²
//	SST = Σ_i ||z_i - mean(z)||²
//	IL  = 100 · SSE / SST
//
// using squared Euclidean distances (SSE, SST, IL). Clustering.CheckK
// checks that every group has at least k records (ErrGroupTooSmall).
//
//	z, _ := model.Standardize(raw)
//	c, err := model.NewClustering(raw.N, [][]int{{0, 1, 2}, {3, 4, 5}})
//	il := model.IL(z, c)          // percent
//	prot := model.Protect(raw, c) // what is published
//
// # Contingency tables and released marginals
//
// A Table is a k-way table of counts over categorical Variables, cells in
// row-major order (the first variable slowest). A Marginal is the table
// collapsed onto a subset M of the variables, n_M(m) = Σ_{c : c_M = m} n_c
// (Table.Collapse). A MarginSet is what an intruder knows: the variables
// and the released marginals, without the table (Table.Released,
// Table.ReleaseSpec with specifications such as "AB,AC,BC" or
// "age:sex,sex:region"). MarginSet.Check validates shapes and counts and
// that every two marginals agree on their shared variables; a
// disagreement is an *InconsistencyError. CellBounds holds lower and upper
// bounds per cell of the full table, the output of the bounds problem of
// Dobra & Fienberg ("Bounds for cell entries in contingency tables induced
// by fixed marginal totals", Sections 2-4; packages cellbounds, lp, ip,
// native/frechet, native/shuttle).
//
// # Quasi-identifiers and generalization graphs
//
// Freeform generalization (Doka et al., "k-Anonymization by Freeform
// Generalization"): a QITable holds N records of numeric and categorical
// quasi-identifiers (categorical values as codes, optionally with a
// generalization Hierarchy). Every published record T_j is a Box built
// from the originals S_i matched to it: numeric [min, max], categorical
// the set of values or, with a hierarchy, their lowest common ancestor.
// Its normalized certainty penalty per attribute a is
//
//	numeric      NCP_a = (max − min) / (Max_a − Min_a), 0 when Max_a = Min_a
//	categorical  NCP_a = |values| / |categories|, 0 for one value
//	hierarchy    NCP_a = leaves(node) / |categories|, 0 for a leaf
//
// and the global certainty penalty of a GenGraph (Matched[j] = the
// originals of T_j) is
//
//	GCP = Σ_j Σ_a NCP_a(box_j) / (N·D)   ∈ [0, 1].
//
// Two edge cases are exact rather than refused. A range Max_a − Min_a
// that overflows float64 (values near ±1e308) is computed on halved
// values (QIAttr.Scale, Span, Width), so NCPs stay finite and correct. A
// missing numeric value (NaN, IsMissing) is "any value": its record's
// box, and every box it joins, spans [Min_a, Max_a], and it lies only in
// such boxes (NewBox, Add, Contains, Increase).
//
// A valid publication's graph is k-regular and contains the identity
// round S_j–T_j (GenGraph.CheckRegular). QITable.Increase is the edge
// weight of the greedy and Hungarian rounds of package kanon: the rise of
// T_j's NCP sum if S_i joins it.
//
// # Column-generation data
//
// SqDist is the matrix c_ij = ||z_i − z_j||² of Gentile,
// Spagnolo-Arrizabalaga & Castro ("A column generation approach for
// microaggregation"): the SSE of a group C is w_C = Σ_{i<j ∈ C} c_ij / |C|
// (their Equation (8), from Proposition 3.1), and with master duals λ its
// reduced cost is w_C − Σ_{v∈C} λ_v (Equation (10)). A PricingInstance is
// one pricing subproblem of fixed size η (Section 4.2); a Column is a
// priced group.
//
// # Conventions
//
// Constructors (NewDataset, NewClustering, FromLabels, NewTable) and the
// Check methods return errors for bad data; the measures and accessors
// assume values that passed them (Protect and Unstandardize document the
// panics of mismatched shapes). The loaders of package datasets build
// these values from files and check sizes against the memory limit.
//
// Standardize takes each attribute's mean and population standard deviation
// from gonum's stat.PopMeanVariance; SST, SSE and Centroids accumulate over
// the row-major records (their comments name the benchmarks that keep the
// hand-written SST and SSE loops: 1.4-5x faster than gonum's).
package model
