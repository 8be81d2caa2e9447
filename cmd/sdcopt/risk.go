package main

import (
	"fmt"
	"io"

	"github.com/sdcopt/sdcopt/risk"
)

// The disclosure-risk part of the reports of `sdcopt microagg` and
// `sdcopt kanon` (the measures are package risk's).

// numericRisk is the JSON "risk" object of `sdcopt microagg`.
type numericRisk struct {
	RecordLinkage      float64 `json:"record_linkage"`      // DBRL: expected share of records linked to their own original
	RecordLinkageTied  int     `json:"record_linkage_tied"` // records with more than one nearest original
	IntervalDisclosure float64 `json:"interval_disclosure"` // sdcMicro's dRisk since 5.6.0: share of records with every value inside its interval
	// sdcMicro's dRisk up to 5.5.1: share of records with at most one
	// value outside its interval
	IntervalOneOutside float64 `json:"interval_disclosure_one_outside"`
	IntervalP          float64 `json:"interval_p"` // interval half width, a fraction of the protected sd
	Seconds            float64 `json:"seconds"`
}

func newNumericRisk(r *risk.NumericReport) *numericRisk {
	return &numericRisk{RecordLinkage: r.Linkage, RecordLinkageTied: r.LinkageTied, IntervalDisclosure: r.Interval,
		IntervalOneOutside: r.IntervalOneOutside, IntervalP: r.IntervalP, Seconds: r.Seconds}
}

// writeNumericRisk writes the text lines of a numericRisk (label padded
// to the report's column).
func writeNumericRisk(w io.Writer, pad string, r *numericRisk) {
	fmt.Fprintf(w, "risk%s%s\n", pad, numericRiskSummary(r))
}

// numericRiskSummary is the one-line summary of a numericRisk.
func numericRiskSummary(r *numericRisk) string {
	return fmt.Sprintf("record linkage %.2f %% (%d tied), interval disclosure %.2f %% (p = %g sd; %.2f %% with one attribute outside allowed, as sdcMicro before 5.6.0)",
		100*r.RecordLinkage, r.RecordLinkageTied, 100*r.IntervalDisclosure, r.IntervalP, 100*r.IntervalOneOutside)
}

// generalizationRisk is the JSON "risk" object of `sdcopt kanon`.
type generalizationRisk struct {
	MaxReidentification  float64 `json:"max_reidentification"`  // max over published records of 1/(originals in the box), <= 1/k
	MeanReidentification float64 `json:"mean_reidentification"` // its mean
	MinCandidates        int     `json:"min_candidates"`        // fewest originals in a published box
	LinkageMean          float64 `json:"linkage_mean"`          // expected share of correct links of the box linkage attack
	LinkageMax           float64 `json:"linkage_max"`           // largest probability of a correct link
	Exact                bool    `json:"exact"`
	Sample               int     `json:"sample,omitempty"` // records sampled for the means when not exact
	Seconds              float64 `json:"seconds"`
}

func newGeneralizationRisk(r *risk.GeneralizationReport) *generalizationRisk {
	g := &generalizationRisk{MaxReidentification: r.MaxReidentification, MeanReidentification: r.MeanReidentification, MinCandidates: r.MinCandidates,
		LinkageMean: r.LinkageMean, LinkageMax: r.LinkageMax, Exact: r.Exact, Seconds: r.Seconds}
	if !r.Exact {
		g.Sample = r.Sample
	}
	return g
}

// generalizationRiskSummary is the one-line summary of a
// generalizationRisk.
func generalizationRiskSummary(r *generalizationRisk, k int) string {
	s := fmt.Sprintf("re-identification max %.4f (<= 1/k = %.4f), mean %.4f; linkage attack %.2f %% correct, max %.4f",
		r.MaxReidentification, 1/float64(k), r.MeanReidentification, 100*r.LinkageMean, r.LinkageMax)
	if !r.Exact {
		s += fmt.Sprintf(" (means on a sample of %d)", r.Sample)
	}
	return s
}
