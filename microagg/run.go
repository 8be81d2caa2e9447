package microagg

import (
	"fmt"
	"strings"

	"github.com/sdcopt/sdcopt/model"
)

// Method names accepted by Run.
const (
	MethodMDAV       = "mdav"
	MethodVMDAV      = "vmdav"
	MethodUnivariate = "univariate"
	MethodProjection = "projection"
	MethodICSM       = "icsm"
)

// Methods lists the method names Run accepts.
func Methods() []string {
	return []string{MethodMDAV, MethodVMDAV, MethodUnivariate, MethodProjection, MethodICSM}
}

// Options holds the settings of the methods that have any. The zero value
// means defaults.
type Options struct {
	// Gamma is V-MDAV's extension parameter γ; 0 means DefaultGamma.
	Gamma float64
	// ICSM holds the settings of the icsm method.
	ICSM ICSMOptions
}

// Run partitions z into groups of at least k records with the named
// method (see Methods). Errors: ErrMethod for an unknown name, and those
// of the method.
func Run(method string, z *model.Dataset, k int, opt Options) (*model.Clustering, error) {
	switch strings.ToLower(method) {
	case MethodMDAV:
		return MDAV(z, k)
	case MethodVMDAV:
		g := opt.Gamma
		if g == 0 {
			g = DefaultGamma
		}
		return VMDAV(z, k, g)
	case MethodUnivariate:
		return OptimalUnivariate(z, k)
	case MethodProjection:
		return Projection(z, k)
	case MethodICSM:
		res, err := ICSM(z, k, opt.ICSM)
		if err != nil {
			return nil, err
		}
		return res.Clustering, nil
	}
	return nil, fmt.Errorf("%w %q (want one of %s)", ErrMethod, method, strings.Join(Methods(), ", "))
}
