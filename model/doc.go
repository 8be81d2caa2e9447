// Package model holds sdcopt's problem types and their measures, free of
// any solver: numerical microdata and clusterings (microaggregation),
// contingency tables and marginals (cell bounds), and generalization
// graphs (k-anonymity).
//
// Microaggregation (Domingo-Ferrer & Mateo-Sanz 2002; the conventions of
// the CASC benchmark literature): records are z-scored per attribute,
// partitioned into groups of at least k records, and every record is
// replaced by its group centroid. With z_i the standardized records,
//
//	SSE = Σ_groups Σ_{i ∈ g} ||z_i - mean_g(z)||²
//	SST = Σ_i ||z_i - mean(z)||²
//	IL  = 100 · SSE / SST
//
// using squared Euclidean distances.
package model
