package microagg

import (
	"errors"
	"fmt"
	"math"

	"github.com/sdcopt/sdcopt/model"
)

// Errors returned (wrapped, with the offending values) for bad input.
var (
	ErrEmpty         = errors.New("microagg: the data set has no records")
	ErrNoAttributes  = errors.New("microagg: the data set has no attributes")
	ErrNonFinite     = errors.New("microagg: the data set has a NaN or infinite value")
	ErrK             = errors.New("microagg: invalid group size k")
	ErrGamma         = errors.New("microagg: invalid gamma")
	ErrNotUnivariate = errors.New("microagg: optimal univariate microaggregation needs exactly one attribute")
	ErrMethod        = errors.New("microagg: unknown method")
	ErrTooLarge      = errors.New("microagg: too many records")
)

// validate checks the inputs every method shares: records, attributes,
// finite values and 2 <= k <= n.
func validate(z *model.Dataset, k int) error {
	if z == nil {
		panic("microagg: nil data set")
	}
	if len(z.X) != z.N*z.D {
		panic(fmt.Sprintf("microagg: data set of %d x %d holds %d values", z.N, z.D, len(z.X)))
	}
	if z.N == 0 {
		return ErrEmpty
	}
	if z.D == 0 {
		return ErrNoAttributes
	}
	if z.N > math.MaxInt32 {
		return fmt.Errorf("%w: %d records, at most %d are supported", ErrTooLarge, z.N, math.MaxInt32)
	}
	if k < 2 || k > z.N {
		return fmt.Errorf("%w: k = %d, need 2 <= k <= %d (the number of records)", ErrK, k, z.N)
	}
	for i, v := range z.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: record %d, attribute %d is %v", ErrNonFinite, i/z.D, i%z.D, v)
		}
	}
	return nil
}
