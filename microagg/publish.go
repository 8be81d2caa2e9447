package microagg

import (
	"fmt"
	"strconv"

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
	return PublishRounded(raw, cl, nil, opt)
}

// PublishRounded is Publish with the protected values rounded to digits[j]
// decimals in attribute j (rounded half to even, as strconv formats them),
// the values a file written with that precision carries; nil digits keep
// full precision. The risk is measured on the rounded values: it is the
// risk of what is published.
func PublishRounded(raw *model.Dataset, cl *model.Clustering, digits []int, opt *risk.NumericOptions) (*Publication, error) {
	if raw == nil || cl == nil || len(cl.Group) != raw.N {
		return nil, fmt.Errorf("microagg: Publish: clustering and data set differ in size")
	}
	if digits != nil && len(digits) != raw.D {
		return nil, fmt.Errorf("microagg: Publish: %d digits for %d attributes", len(digits), raw.D)
	}
	prot := model.Protect(raw, cl)
	if digits != nil {
		for i, v := range prot.X {
			x, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits[i%raw.D], 64), 64)
			if err != nil {
				return nil, fmt.Errorf("microagg: Publish: rounding %v: %w", v, err)
			}
			prot.X[i] = x
		}
	}
	r, err := risk.Numeric(raw, prot, opt)
	if err != nil {
		return nil, fmt.Errorf("microagg: %w", err)
	}
	return &Publication{Data: prot, Risk: r}, nil
}
