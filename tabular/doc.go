// Package tabular models tables as statistical offices publish them: the
// cells of a table at every level of its hierarchical spanning
// variables, the linear relations between them, frequency and magnitude
// tables with their contributors, and linked tables. It is the model on
// which primary rules, the interval audit (the attacker LP) and secondary
// suppression are built (issue 45); it imports no solver.
//
// # Hierarchies and cells
//
// A spanning variable (Dimension) has codes organised in a tree
// (Hierarchy): the root is the total (DefaultRoot, "Total"), every other
// code is part of its parent ("Total" → regions → municipalities); a flat
// variable is a root with leaves. Codes are numbered in pre-order, a
// total before its parts, which is the canonical order of everything in
// the package. A Table over dimensions d = 1..D with code sets C_d has a
// cell for every combination c = (c_1, ..., c_D) ∈ C_1 × ... × C_D,
// leaves, subtotals and totals alike, indexed in row-major order (the
// first dimension slowest). Hierarchies are read from τ-ARGUS .hrc files
// (ReadHRC), two-column parent/child CSV files (ReadParentChild), a
// code-prefix rule such as "1,3" (PrefixHierarchy), or built from the data
// (NewFlat).
//
// # Relations: A x = 0
//
// With x the vector of all cells' values, the table is additive: for every
// dimension d, every non-leaf code p of d and every combination of codes
// of the other dimensions,
//
//	x(c_1, ..., p, ..., c_D) = Σ_{q ∈ children(p)} x(c_1, ..., q, ..., c_D)
//
// (Hundepool et al. 2012, Chapter 4; the τ-ARGUS manual's hierarchical
// tables). Each such equation is a Relation (the total's index, the
// parts' indices): a row of a sparse matrix A with −1 at the total and +1
// at each part, so that a table is consistent iff A x = 0. There are
// Σ_d (non-leaf codes of d)·Π_{e≠d} |C_e| relations (NumRelations); a
// cell is the total of at most one relation per dimension. The interval
// audit of a suppressed table is then: for a suppressed cell i,
//
//	min / max x_i  subject to  A x = 0,  x_j = a_j for published j,  l ≤ x ≤ u
//
// (Hundepool et al. 2012, Chapter 4; the attacker problem of Fischetti
// and Salazar-González), the same polytope cellbounds solves for released
// margins. CheckConsistent verifies A x = 0 on a table's values within a
// tolerance and names the first violated relation's cells.
//
// # Cells, statuses and contributors
//
// A Cell has a Value (a frequency, or the sum of a response in a magnitude
// table; weighted when the table has sampling weights), Freq (the
// unweighted number of contributors), a Cost of suppressing it, a Status
// and the Rule that made it primary. Statuses (with their file names):
//
//	safe          published
//	primary       sensitive by a primary rule: suppressed
//	secondary     suppressed to protect primary cells
//	must_publish  never suppressed (τ-ARGUS's "protected")
//	empty         no contributors: structurally zero, known to everyone
//
// A magnitude cell keeps its largest contributions (Top, in decreasing
// order, by respondent; TopHolding by holding, a holding's contribution
// the sum of its respondents'), which is what the dominance and p% rules
// need (Hundepool et al. 2012, Chapter 4). ReadMicrodata and
// Builder tabulate microdata; ReadTableFile and WriteTableFile read and
// write one row per cell (codes, value, freq, status, cost, rule, and the
// optional protection levels upper, lower, sliding and prior bounds
// prior_lower, prior_upper), so the outputs of other tools and
// hand-suppressed tables can be read.
//
// # Primary rules
//
// ApplyPrimary applies a primary.RuleSet (freq, nk, p, pq, zero, safety)
// to every cell from its Value, Freq, Top and TopHolding, marks the
// sensitive cells Primary with the names of the rules that fired
// ("freq(3)+p(15)") and their protection levels Upper and Lower (package
// primary's formulas). Concentration rules are refused on frequency
// tables and on weighted tables (the top contributions are kept
// unweighted; see ApplyPrimary).
//
// # The JJ format
//
// WriteJJ and ReadJJ write and read a cell suppression problem in the JJ
// format of τ-ARGUS and sdcTable (writeJJFormat; the format goes back to
// Fischetti and Salazar-González's codes): the cells with value, cost,
// status letter, prior bounds and lower, upper and sliding protection
// levels, then the relations as sparse rows "rhs k : j (c) ...". The file
// has no dimensions, codes, frequencies, rules or contributions, so it is
// read into a LinearSystem (cells and general linear relations by cell
// index), which Table.Linear and System.Linear also build; that is what
// the audit needs. A JJ file read and written back is the same file.
//
// # Linked tables
//
// Tables built from the same microdata over different, overlapping sets
// of variables (region × sector and region × size) are linked: a cell is
// identified by its codes per variable with the variables its table does
// not span at their total, so the region margin of both tables (the grand
// total included) is one set of cells. A System holds the tables with one
// global cell index, the union of their relations (each once), and
// checks that shared cells agree in value and frequency (a ConflictError
// names the cell otherwise). Protecting linked tables one at a time is
// unsafe: a cell suppressed in one can be recomputed through another
// (Hundepool et al. 2012, Chapter 4; de Wolf and Giessing, "Adjusting
// the τ-ARGUS modular approach to deal with linked tables", 2009); the
// audit and secondary suppression work on the System.
//
// # Errors
//
// Data-dependent failures are errors: *datasets.DataError naming the file,
// the line (1-based; a header is line 1) and the column or field, wrapping
// the package's sentinels ErrHierarchy, ErrBuild or ErrTableFile; an
// *InconsistencyError (ErrInconsistent); a *ConflictError or ErrLinked.
// Programmer errors (a dimension without a hierarchy, a negative
// tolerance, a non-leaf code given to Builder.Add) panic.
//
// # Sources
//
// A. Hundepool, J. Domingo-Ferrer, L. Franconi, S. Giessing, E. Schulte
// Nordholt, K. Spicer, P.-P. de Wolf, Statistical Disclosure Control,
// Wiley 2012, Chapter 4 (magnitude tabular data) and Chapter 5
// (frequency tables); section numbers are not cited here because they
// were not checked against the book. The τ-ARGUS user's manual (Statistics
// Netherlands): the .hrc hierarchy file (one code a line, the depth by
// leading '@'), cell statuses, holdings and sampling weights.
package tabular
