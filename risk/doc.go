// Package risk measures the disclosure risk of protected outputs,
// independently of how they were made: it takes the original records and
// what is published, nothing else.
//
// # Numerical microdata (microaggregation, or any masking that keeps the records)
//
// Numeric compares an original data set X (n records, d attributes) with
// its protected version X' (the same records, in the same order):
//
//   - Distance-based record linkage, DBRL (Domingo-Ferrer & Torra, "A
//     quantitative comparison of disclosure control methods for
//     microdata", in Confidentiality, Disclosure and Data Access,
//     North-Holland 2001, pp. 111-134; reference [11] of Gentile,
//     Spagnolo-Arrizabalaga & Castro, who cite it for microaggregation's
//     risk/loss trade-off; Hundepool et al., Statistical Disclosure
//     Control, Wiley 2012, Section 3.3): an
//     intruder who holds the original records links every protected record
//     to its nearest original (Euclidean distance on the attributes
//     standardized by the original's mean and standard deviation). The risk
//     is the share of protected records whose nearest original is their own.
//     Ties: when several originals are nearest (squared distances within
//     TieTol), the intruder picks one uniformly, and a tie that includes the
//     own original counts 1/(number tied). See RecordLinkage.
//   - Interval disclosure as sdcMicro's dRisk (Templ, "Statistical
//     Disclosure Control for Microdata", Springer 2017; sdcMicro R/dRisk.R,
//     dRiskWORK): around every protected value x'_ij an interval
//     [x'_ij - p·s'_j, x'_ij + p·s'_j] is built, s'_j the sample standard
//     deviation of attribute j in the protected data and p = 0.05 by
//     default; a record is at risk when every one of its original values
//     lies inside its interval, as sdcMicro counts it since release 5.6.0.
//     The risk is the share of records at risk. See IntervalDisclosure.
//     sdcMicro up to 5.5.1 counted a record at risk when at most one of its
//     values lay outside; Numeric reports that share too
//     (IntervalOneOutside, IntervalDisclosureOneOutside), so that either
//     release's figure can be compared.
//   - IL1s (Yancey, Winkler & Creecy, "Disclosure risk assessment in
//     perturbative microdata protection", LNCS 2316, 2002; sdcMicro's
//     dUtility): the mean over records and attributes of
//     |x_ij - x'_ij| / (sqrt(2)·s_j), s_j the sample standard deviation of
//     attribute j in the original. An information-loss measure, reported
//     beside the risk. See IL1s.
//
// # Generalized microdata (k-anonymity)
//
// Generalization takes the original quasi-identifiers (a model.QITable)
// and the published boxes (one per published record: numeric intervals,
// categorical sets or hierarchy nodes, see model.Box):
//
//   - Re-identification (the prosecutor model of Sweeney, "k-anonymity: a
//     model for protecting privacy", 2002; El Emam & Dankar, "Protecting
//     privacy using k-anonymity", JAMIA 15(5), 2008): an intruder who knows
//     that a target is in the data and knows its quasi-identifiers finds
//     the published records whose box contains them. Seen from a published
//     record j, the originals inside its box are c_j candidates, so it is
//     re-identified with probability 1/c_j. The largest such probability
//     must be at most 1/k; it is checked (ErrExceeds), not assumed.
//   - Linkage attack on the published boxes: for every original i, the m_i
//     published boxes that contain it are its candidate matches; the
//     attacker links it to one of them uniformly at random. Its own box
//     always contains it, so the link is correct with probability 1/m_i.
//     Reported: the mean over originals (the expected share of correct
//     links) and the maximum.
//
// Both counts are exact: the distinct original records are indexed in a
// trie ordered by the most selective attributes first, and every distinct
// box walks only the branches it contains. When the walk would take more
// than GeneralizationOptions.MaxWork node visits, the means are estimated
// on a seeded sample of records (the report says so and gives its size)
// while the largest re-identification probability stays exact.
package risk
