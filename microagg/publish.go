package microagg

import (
	"fmt"

	"github.com/sdcopt/sdcopt/model"
	"github.com/sdcopt/sdcopt/risk"
)

// Publication is what microaggregation publishes, with its disclosure
// risk.
type Publication struct {
	// Data has every record replaced by its group's centroid, in the
	// original units (model.Protect).
	Data *model.Dataset
	// Risk compares Data with the original records: distance-based
	// record linkage, interval disclosure and IL1s (risk.Numeric).
	Risk *risk.NumericReport
}

// Publish builds the protected data set of the clustering cl of raw (the
// data in original units, not z-scored) and measures its disclosure risk.
// opt configures the measures (nil: risk's defaults). Errors: a clustering
// of another number of records, and those of risk.Numeric (fewer than 2
// records).
func Publish(raw *model.Dataset, cl *model.Clustering, opt *risk.NumericOptions) (*Publication, error) {
	if raw == nil || cl == nil || len(cl.Group) != raw.N {
		return nil, fmt.Errorf("microagg: Publish: clustering and data set differ in size")
	}
	prot := model.Protect(raw, cl)
	r, err := risk.Numeric(raw, prot, opt)
	if err != nil {
		return nil, fmt.Errorf("microagg: %w", err)
	}
	return &Publication{Data: prot, Risk: r}, nil
}
